/*
 * The importer's fmi2CallbackLogger.
 *
 * fmi2CallbackLogger is C-variadic (the message is a printf format) and Rust cannot define
 * variadic functions, so this shim formats the message and hands the finished text to a Rust
 * sink. The sink is found through the FMU's componentEnvironment pointer, which the importer sets
 * to a struct whose first field is the sink's function pointer; no global symbol or state is
 * involved, so any number of instances (of any number of FMUs) can log at once.
 *
 * Formatting, and what it defends against. Other importers format the same way: FMI Library
 * (fmi2_log_forwarding_v) formats with jm_vsnprintf into a buffer of JM_MAX_ERROR_MESSAGE_SIZE
 * (2000) bytes, FMPy (fmpy/logging/logging.c) with vsnprintf into a 2048-byte buffer. The FMU's
 * message is a format string, and a format directive whose argument the FMU did not pass cannot
 * be detected by the receiver of a va_list. The rule here:
 *
 *   1. A message containing a %n directive (any flags, width or length: "%n", "%hhn", "%1$n";
 *      "%%n" is a literal and does not count) is NOT formatted: it is passed verbatim, followed by
 *      ROTORCRAFT_UNFORMATTED_NOTE. %n writes through a pointer argument, so a message that uses
 *      it with a missing or wrong argument writes to an arbitrary address; no sane log message
 *      needs it.
 *   2. Every other message is formatted with vsnprintf into a stack buffer of
 *      ROTORCRAFT_LOG_LIMIT (4096) bytes; a longer result is cut there (at a UTF-8 character
 *      boundary) and ROTORCRAFT_TRUNCATED_NOTE with the full length is appended. No heap
 *      allocation, whatever the FMU logs; a verbatim message (rule 1) is bounded the same way.
 *   3. vsnprintf failing (an invalid format): the raw text is passed, bounded as in 2.
 *
 * What cannot be defended against: a directive that reads an argument the FMU did not pass
 * ("%s" or "%d" with nothing after the message) reads whatever the calling convention leaves in
 * that register or stack slot: garbage text, or a crash when "%s" dereferences it. That is the
 * FMU breaking the logger's contract (FMI 2.0 section 2.1.5: the message is formatted "as in
 * printf" with the arguments passed), exactly as with FMPy or FMI Library.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Longest message text handed to the sink, bytes (excluding the notes and the NUL). */
#define ROTORCRAFT_LOG_LIMIT 4096
#define ROTORCRAFT_UNFORMATTED_NOTE " [importer: message not formatted, it contains a %n directive]"
#define ROTORCRAFT_TRUNCATED_NOTE " [importer: truncated, the message has %zu bytes]"
/* Room after the text for both notes (the truncation note with a 20-digit length). */
#define ROTORCRAFT_NOTE_ROOM 192

typedef void (*rotorcraft_fmi2_sink)(void* env, const char* instance, int status, const char* category,
                                     const char* message);

/* The first field of the Rust `LoggerEnv` (#[repr(C)]). */
struct rotorcraft_fmi2_logger_env {
    rotorcraft_fmi2_sink sink;
};

/* Whether `format` has a %n conversion (rule 1). Skips what may stand between '%' and the
 * conversion character: argument position ("1$"), flags, width, precision, length modifiers. */
static int has_n_directive(const char* format) {
    for (const char* p = format; *p != '\0'; p++) {
        if (*p != '%') {
            continue;
        }
        p++;
        if (*p == '%') {
            continue; /* "%%": a literal percent sign */
        }
        while (*p != '\0' && strchr("0123456789$-+ #'*.hlLqjzt", *p) != NULL) {
            p++;
        }
        if (*p == 'n') {
            return 1;
        }
        if (*p == '\0') {
            return 0;
        }
    }
    return 0;
}

/* Cuts `text` (of `length` > `limit` bytes; the byte at `limit` is still the text's, not its
 * NUL) back to at most `limit` bytes ending on a UTF-8 character boundary and appends the
 * truncation note. `text` must have room for `limit` + ROTORCRAFT_NOTE_ROOM bytes. */
static void truncate_with_note(char* text, size_t limit, size_t length) {
    size_t cut = limit;
    /* A continuation byte (10xxxxxx) at the cut belongs to a character that started before it. */
    while (cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80) {
        cut--;
    }
    snprintf(text + cut, ROTORCRAFT_NOTE_ROOM / 2, ROTORCRAFT_TRUNCATED_NOTE, length);
}

/* Copies `message` into `text` (room for LIMIT + NOTE_ROOM bytes), truncated as in rule 2. */
static void bounded_copy(char* text, const char* message) {
    size_t length = strlen(message);
    if (length > ROTORCRAFT_LOG_LIMIT) {
        memcpy(text, message, ROTORCRAFT_LOG_LIMIT + 1);
        truncate_with_note(text, ROTORCRAFT_LOG_LIMIT, length);
    } else {
        memcpy(text, message, length + 1);
    }
}

void rotorcraft_fmi2_logger(void* env, const char* instance, int status, const char* category, const char* message,
                            ...) {
    if (env == NULL) {
        /* An FMU that lost its componentEnvironment: do not drop the message silently, but do not
         * trust it as a format either. */
        fprintf(stderr, "[fmi2 status %d] %s (%s): %.4096s\n", status, instance ? instance : "?",
                category ? category : "", message ? message : "");
        return;
    }
    rotorcraft_fmi2_sink sink = ((struct rotorcraft_fmi2_logger_env*)env)->sink;
    if (message == NULL) {
        sink(env, instance, status, category, "");
        return;
    }

    char text[ROTORCRAFT_LOG_LIMIT + ROTORCRAFT_NOTE_ROOM];
    if (has_n_directive(message)) {
        /* Rule 1: verbatim, bounded, with the note. */
        bounded_copy(text, message);
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "%s", ROTORCRAFT_UNFORMATTED_NOTE);
        sink(env, instance, status, category, text);
        return;
    }

    /* Rule 2: formatted into the bounded buffer. vsnprintf may write LIMIT + 1 characters and the
     * NUL, so that when the result is longer than LIMIT the byte at LIMIT is still the text's
     * (truncate_with_note needs it to find a character boundary). */
    va_list args;
    va_start(args, message);
    int needed = vsnprintf(text, ROTORCRAFT_LOG_LIMIT + 2, message, args);
    va_end(args);
    if (needed < 0) {
        /* Rule 3: invalid format, pass the raw text (bounded). */
        bounded_copy(text, message);
    } else if ((size_t)needed > ROTORCRAFT_LOG_LIMIT) {
        truncate_with_note(text, ROTORCRAFT_LOG_LIMIT, (size_t)needed);
    }
    sink(env, instance, status, category, text);
}
