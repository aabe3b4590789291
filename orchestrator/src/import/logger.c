/*
 * The importer's fmi2CallbackLogger.
 *
 * fmi2CallbackLogger is C-variadic (the message is a printf format) and Rust cannot define
 * variadic functions, so this shim formats the message with vsnprintf and hands the finished
 * text to a Rust sink. The sink is found through the FMU's componentEnvironment pointer, which the
 * importer sets to a struct whose first field is the sink's function pointer; no global symbol
 * or state is involved, so any number of instances (of any number of FMUs) can log at once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*rotorcraft_fmi2_sink)(void* env, const char* instance, int status, const char* category,
                                     const char* message);

/* The first field of the Rust `LoggerEnv` (#[repr(C)]). */
struct rotorcraft_fmi2_logger_env {
    rotorcraft_fmi2_sink sink;
};

void rotorcraft_fmi2_logger(void* env, const char* instance, int status, const char* category, const char* message,
                            ...) {
    if (env == NULL) {
        /* An FMU that lost its componentEnvironment: do not drop the message silently. */
        fprintf(stderr, "[fmi2 status %d] %s (%s): %s\n", status, instance ? instance : "?", category ? category : "",
                message ? message : "");
        return;
    }
    rotorcraft_fmi2_sink sink = ((struct rotorcraft_fmi2_logger_env*)env)->sink;
    if (message == NULL) {
        sink(env, instance, status, category, "");
        return;
    }

    /* First pass into a stack buffer: enough for nearly every message. */
    char small[1024];
    va_list args;
    va_list again;
    va_start(args, message);
    va_copy(again, args);
    int needed = vsnprintf(small, sizeof small, message, args);
    va_end(args);

    if (needed < 0) {
        /* Invalid format: pass the raw format text rather than nothing. */
        va_end(again);
        sink(env, instance, status, category, message);
        return;
    }
    if ((size_t)needed < sizeof small) {
        va_end(again);
        sink(env, instance, status, category, small);
        return;
    }

    /* Second pass for a long message, into a buffer of the exact size. */
    size_t size = (size_t)needed + 1;
    char* large = malloc(size);
    if (large == NULL) {
        va_end(again);
        sink(env, instance, status, category, small); /* truncated, but not lost */
        return;
    }
    vsnprintf(large, size, message, again);
    va_end(again);
    sink(env, instance, status, category, large);
    free(large);
}
