package io.apiwarden.core.token.store;

/** The store could not be reached or did not answer within its time-out. Never holds a token or credential. */
public final class StoreUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public StoreUnavailableException(String message) {
        super(message);
    }

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
