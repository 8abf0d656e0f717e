package io.apiwarden.core.call;

/**
 * Whether a request's body can go out again, asked when a response has been classified (not when
 * the attempt is prepared: a body recorded as it is sent is only whole once it has been sent).
 */
public enum BodyReplay {
    /** The client produces the same bytes again, or the body was recorded whole: a resend is safe. */
    REPEATABLE,
    /** The client cannot produce the body twice and nothing was recorded. */
    NOT_REPEATABLE,
    /** The body was longer than the recording bound ({@code apiwarden.resend.max-recorded-body}). */
    TOO_LARGE_TO_REPLAY,
    /** The body was being recorded but had not ended (still streaming, failed or cancelled). */
    NOT_FINISHED
}
