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

/* fmi2Instantiate of an instance struct `type` that starts with the callbacks `cb`: the struct
 * from `allocateMemory` (zeroed), the callbacks kept, then the statements after `type` (the start
 * values), which see the new instance `i` and the argument `name`. */
#define FMI2_INSTANTIATE(type, ...) \
    fmi2Component fmi2Instantiate(fmi2String name, int kind, fmi2String guid, fmi2String resources, \
                                  const fmi2CallbackFunctions* f, fmi2Boolean visible, fmi2Boolean loggingOn) { \
        (void)name; (void)kind; (void)guid; (void)resources; (void)visible; (void)loggingOn; \
        type* i = f->allocateMemory(1, sizeof(type)); \
        if (!i) return NULL; \
        i->cb = *f; \
        __VA_ARGS__ \
        return i; \
    }

/* fmi2FreeInstance of an instance struct `type` that starts with the callbacks `cb`. */
#define FMI2_FREE_INSTANCE(type) \
    void fmi2FreeInstance(fmi2Component c) { type* i = c; i->cb.freeMemory(i); }

/* fmi2SetupExperiment that ignores the experiment. */
#define FMI2_IGNORE_EXPERIMENT \
    fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean td, fmi2Real tol, fmi2Real start, fmi2Boolean sd, \
                                   fmi2Real stop) { \
        (void)c; (void)td; (void)tol; (void)start; (void)sd; (void)stop; return fmi2OK; }

/* fmi2SetupExperiment that sets the `time` of the instance struct `type` to the start time. */
#define FMI2_EXPERIMENT_SETS_TIME(type) \
    fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean td, fmi2Real tol, fmi2Real start, fmi2Boolean sd, \
                                   fmi2Real stop) { \
        (void)td; (void)tol; (void)sd; (void)stop; ((type*)c)->time = start; return fmi2OK; }

/* The FMU's Reals are the fields listed, `&i->time, &i->count, ...` for its instance `type* i`,
 * value reference 0, 1, ... in that order: `static double* var(type*, fmi2ValueReference)` (NULL:
 * no such variable), fmi2GetReal and fmi2SetReal, which refuses value references below
 * `first_settable`. */
#define FMI2_REAL_FIELDS(type, first_settable, ...) \
    static double* var(type* i, fmi2ValueReference vr) { \
        double* fields[] = { __VA_ARGS__ }; \
        return vr < sizeof fields / sizeof *fields ? fields[vr] : NULL; \
    } \
    fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference* vr, size_t n, fmi2Real* v) { \
        for (size_t k = 0; k < n; k++) { double* p = var(c, vr[k]); if (!p) return fmi2Error; v[k] = *p; } \
        return fmi2OK; \
    } \
    fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference* vr, size_t n, const fmi2Real* v) { \
        for (size_t k = 0; k < n; k++) { \
            double* p = var(c, vr[k]); if (!p || vr[k] < (first_settable)) return fmi2Error; *p = v[k]; \
        } \
        return fmi2OK; \
    }

/* What every hand-written FMU here writes the same way, for its instance struct `type`:
 * fmi2GetTypesPlatform and fmi2GetVersion, fmi2FreeInstance, fmi2SetDebugLogging (ignored) and the
 * trivial modes (FMI2_TRIVIAL_MODES). */
#define FMI2_COMMON(type) \
    FMI2_PLATFORM_AND_VERSION \
    FMI2_FREE_INSTANCE(type) \
    FMI2_IGNORE_DEBUG_LOGGING \
    FMI2_TRIVIAL_MODES

/* The getters and setters of an FMU with Real variables only. */
#define FMI2_ONLY_REALS \
    FMI2_NO_VARIABLES(fmi2GetInteger, fmi2Integer*) \
    FMI2_NO_VARIABLES(fmi2SetInteger, const fmi2Integer*) \
    FMI2_NO_VARIABLES(fmi2GetBoolean, fmi2Boolean*) \
    FMI2_NO_VARIABLES(fmi2SetBoolean, const fmi2Boolean*) \
    FMI2_NO_VARIABLES(fmi2GetString, fmi2String*) \
    FMI2_NO_VARIABLES(fmi2SetString, const fmi2String*)

#endif
