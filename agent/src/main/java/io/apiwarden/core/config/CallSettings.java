package io.apiwarden.core.config;

import io.apiwarden.core.config.WardenConfig.AuthorizationMode;
import java.time.Duration;
import java.util.Locale;

/**
 * How an API's calls are made: back-off and throttle, the bearer's place, body recording and the time limits. A
 * named API takes any of these it does not set from the unnamed properties.
 */
final class CallSettings {
    /** Beyond ten doublings of even a 2 s start the waits exceed half an hour: no caller waits that long. */
    static final int MAX_RETRIES_LIMIT = 10;
    /** The longest body the agent records for a resend: it is held in memory for the whole call. */
    static final long MAX_RECORDED_BODY_LIMIT = 64L * 1024 * 1024;

    final AuthorizationMode authorizationMode;
    final Duration backoffInitialDelay;
    final int backoffMaxRetries;
    final Duration backoffMaxDelay;
    final long maxRecordedBody;
    final Duration maxErrorBodyWait;
    final Duration tokenTimeout;
    final boolean throttleGateEnabled;
    final double retryBudgetRatio;
    final int retryBudgetMinPerSecond;

    CallSettings(SectionReader r) {
        authorizationMode = authorizationMode(r);
        backoffInitialDelay = r.positiveDuration(ConfigProperty.BACKOFF_INITIAL_DELAY);
        backoffMaxRetries = r.integer(ConfigProperty.BACKOFF_MAX_RETRIES, 0, MAX_RETRIES_LIMIT, "give a whole number");
        backoffMaxDelay = r.positiveDuration(ConfigProperty.BACKOFF_MAX_DELAY);
        maxRecordedBody = r.size(
                ConfigProperty.RESEND_MAX_RECORDED_BODY,
                MAX_RECORDED_BODY_LIMIT,
                "(each call holds what it records until it ends), or 0 to record none");
        maxErrorBodyWait = r.positiveDuration(ConfigProperty.CLASSIFY_MAX_BODY_WAIT);
        tokenTimeout = r.positiveDuration(ConfigProperty.TOKEN_TIMEOUT);
        throttleGateEnabled = r.bool(ConfigProperty.THROTTLE_GATE_ENABLED);
        retryBudgetRatio = r.ratio(ConfigProperty.RETRY_BUDGET_RATIO);
        retryBudgetMinPerSecond =
                r.integer(ConfigProperty.RETRY_BUDGET_MIN_PER_SECOND, 0, 1000, "set it to a whole number");
        if (backoffInitialDelay.compareTo(backoffMaxDelay) > 0) {
            r.problems()
                    .add(r.where(ConfigProperty.BACKOFF_MAX_DELAY) + " is shorter than "
                            + r.key(ConfigProperty.BACKOFF_INITIAL_DELAY) + ": make it at least as long");
        }
    }

    private static AuthorizationMode authorizationMode(SectionReader r) {
        ConfigProperty p = ConfigProperty.AUTHORIZATION;
        String value = r.valueOrDefault(p).toLowerCase(Locale.ROOT);
        if (value.equals("if-absent")) {
            return AuthorizationMode.IF_ABSENT;
        }
        if (value.equals("always")) {
            return AuthorizationMode.ALWAYS;
        }
        r.problems().add(r.where(p) + " is '" + value + "': set it to if-absent or always");
        return AuthorizationMode.IF_ABSENT;
    }

    /** The back-off, throttle and recording settings as the configuration line shows them. */
    String describe() {
        return "authorization="
                + authorizationMode.name().toLowerCase(Locale.ROOT).replace('_', '-')
                + ", backoff=" + Durations.format(backoffInitialDelay) + " x2 up to " + backoffMaxRetries
                + " retries, max " + Durations.format(backoffMaxDelay)
                + ", throttle-gate=" + throttleGateEnabled + ", retry-budget=" + Math.round(retryBudgetRatio * 100)
                + "% min " + retryBudgetMinPerSecond + "/s"
                + ", max-recorded-body=" + Sizes.format(maxRecordedBody)
                + ", classify-max-body-wait=" + Durations.format(maxErrorBodyWait);
    }
}
