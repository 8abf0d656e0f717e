package io.apiwarden.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SoakConditionsTest {
    private static final long SECOND = Duration.ofSeconds(1).toNanos();
    private static final Pattern FIELD = Pattern.compile("\"(access_token|refresh_token)\":\"([^\"]+)\"");

    @Test
    void everyThirdCallOpensAWindowInWhichEveryCallIsThrottled() {
        SoakConditions c = new SoakConditions(Duration.ofSeconds(2), 3, Duration.ofNanos(100));
        long t = System.nanoTime();

        assertThat(c.throttles(t)).isFalse();
        assertThat(c.throttles(t)).isFalse();
        assertThat(c.throttles(t)).as("call 3 opens a window").isTrue();
        assertThat(c.throttles(t + 99)).as("call 4, inside it").isTrue();
        assertThat(c.throttles(t + 100)).as("call 5, after it").isFalse();
        assertThat(c.throttles(t + 100)).as("call 6 opens the next").isTrue();

        assertThat(c.throttleWindows()).isEqualTo(2);
        assertThat(c.throttledCalls()).isEqualTo(3);
    }

    @Test
    void anAccessTokenIsAcceptedForItsLifetimeAndRefusedAfter() {
        long t = System.nanoTime();
        SoakConditions c = new SoakConditions(Duration.ofSeconds(2), 0, Duration.ZERO);
        String bearer = "Bearer " + c.firstAccessToken();

        assertThat(c.accepts(bearer, t)).isTrue();
        assertThat(c.accepts(bearer, t + 3 * SECOND)).isFalse();
        assertThat(c.accepts("Bearer made-up", t)).isFalse();
        assertThat(c.expiredRefusals()).isEqualTo(2);
    }

    @Test
    void aRefreshRotatesTheRefreshTokenAndOnlyTheNewOneWorksAfter() {
        long t = System.nanoTime();
        SoakConditions c = new SoakConditions(Duration.ofSeconds(2), 0, Duration.ZERO);
        String first = c.firstRefreshToken();

        SoakConditions.TokenAnswer answer =
                c.refresh("grant_type=refresh_token&refresh_token=" + first, t + 2 * SECOND);

        assertThat(answer.status).isEqualTo(200);
        assertThat(answer.json).contains("\"expires_in\":2");
        assertThat(c.accepts("Bearer " + field(answer.json, "access_token"), t + 3 * SECOND))
                .isTrue();
        assertThat(c.refresh("grant_type=refresh_token&refresh_token=" + first, t + 4 * SECOND).status)
                .as("the rotated-away token")
                .isEqualTo(400);
        assertThat(c.refresh(
                                "grant_type=refresh_token&refresh_token=" + field(answer.json, "refresh_token"),
                                t + 4 * SECOND)
                        .status)
                .isEqualTo(200);
        assertThat(c.tokenRequests()).isEqualTo(3);
        assertThat(c.refusedGrants()).isEqualTo(1);
        assertThat(c.earlyTokenRequests()).isZero();
    }

    @Test
    void aTokenRequestInTheFirstHalfOfTheNewestTokensLifeIsEarly() {
        long t = System.nanoTime();
        SoakConditions c = new SoakConditions(Duration.ofSeconds(2), 0, Duration.ZERO);

        SoakConditions.TokenAnswer answer = c.refresh("refresh_token=" + c.firstRefreshToken(), t + 2 * SECOND);
        c.refresh("refresh_token=" + field(answer.json, "refresh_token"), t + 2 * SECOND + SECOND / 2);

        assertThat(c.earlyTokenRequests()).isEqualTo(1);
    }

    private static String field(String json, String name) {
        Matcher m = FIELD.matcher(json);
        while (m.find()) {
            if (m.group(1).equals(name)) {
                return m.group(2);
            }
        }
        throw new AssertionError("no " + name + " in " + json);
    }
}
