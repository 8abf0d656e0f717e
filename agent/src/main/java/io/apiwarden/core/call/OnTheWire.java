package io.apiwarden.core.call;

/**
 * What an adapter saw of an attempt as it actually went out, beyond what the driver prepared:
 * facts only its client can tell, which the {@link ResendPolicy} weighs with its own reason codes.
 */
public enum OnTheWire {
    /** The attempt went to the API as the driver prepared it. */
    AS_PREPARED,
    /** A redirect the client followed took the final URL out of the API's scope: its answer is not the API's. */
    LEFT_THE_API,
    /**
     * The app's own {@code Authorization} replaced the agent's token after the agent set it (Spring's
     * per-request headers in a body function): a new token of the agent's would not be sent.
     */
    APP_AUTHORIZATION
}
