/* What a hand-written FMI 2.0 Co-Simulation FMU in C needs: the FMI 2.0 types and callbacks, and
 * the functions such an FMU implements the same way. Shared by VanDerPol.c and the C FMUs that
 * the orchestrator tests compile (`-I test-fmus/c`: `test_fmus::fixtures::c_dir`). */
#ifndef FMI2_MINIMAL_H
#define FMI2_MINIMAL_H

#include <stddef.h>
#include <string.h>

typedef void* fmi2Component;
typedef void* fmi2ComponentEnvironment;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef const char* fmi2String;
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
typedef struct {
    fmi2CallbackLogger logger;
    void* (*allocateMemory)(size_t, size_t);
    void (*freeMemory)(void*);
    void (*stepFinished)(fmi2ComponentEnvironment, fmi2Status);
    fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

/* fmi2GetTypesPlatform and fmi2GetVersion. */
#define FMI2_PLATFORM_AND_VERSION \
    const char* fmi2GetTypesPlatform(void) { return "default"; } \
    const char* fmi2GetVersion(void) { return "2.0"; }

/* fmi2SetDebugLogging (ignored). */
#define FMI2_IGNORE_DEBUG_LOGGING \
    fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n, const fmi2String* k) { \
        (void)c; (void)on; (void)n; (void)k; return fmi2OK; }

/* fmi2EnterInitializationMode, fmi2ExitInitializationMode and fmi2Terminate with nothing to do;
 * fmi2Reset refused. */
#define FMI2_TRIVIAL_MODES \
    fmi2Status fmi2EnterInitializationMode(fmi2Component c) { (void)c; return fmi2OK; } \
    fmi2Status fmi2ExitInitializationMode(fmi2Component c) { (void)c; return fmi2OK; } \
    fmi2Status fmi2Terminate(fmi2Component c) { (void)c; return fmi2OK; } \
    fmi2Status fmi2Reset(fmi2Component c) { (void)c; return fmi2Error; }

/* A getter or setter `fn` of a type the FMU has no variables of: only n == 0 succeeds. */
#define FMI2_NO_VARIABLES(fn, type) \
    fmi2Status fn(fmi2Component c, const fmi2ValueReference* vr, size_t n, type v) { \
        (void)c; (void)vr; (void)v; return n == 0 ? fmi2OK : fmi2Error; }

#endif
