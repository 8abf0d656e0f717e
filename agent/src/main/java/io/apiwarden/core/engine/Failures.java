package io.apiwarden.core.engine;

import java.io.IOException;

/** How a failure of the app's own code (its body handler) reaches the app through a managed call. */
public final class Failures {
    private Failures() {}

    /**
     * What an HTTP client's {@code send} throws for a failure of the app's body handler: argument
     * and security errors as they are, anything else wrapped in an {@link IOException}.
     */
    public static Exception asSendException(RuntimeException e) {
        if (e instanceof IllegalArgumentException || e instanceof SecurityException) {
            return e;
        }
        return new IOException(e.getClass().getName() + " while the response was handled", e);
    }
}
