package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.config.RedisTestSettings;
import io.apiwarden.core.time.SystemDelayScheduler;
import io.apiwarden.testing.Eventually;
import io.apiwarden.testing.RedisServerProcess;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fleet's rate-limit window on a real Redis: heard by the others, learned late, outliving a Redis restart. */
class RedisThrottleWindowTest {
    private static final URI BASE_URL = URI.create("https://api.example.com/v1");

    private RedisServerProcess redis;
    private final SystemDelayScheduler scheduler = new SystemDelayScheduler();

    @BeforeEach
    void startRedis() throws Exception {
        redis = RedisServerProcess.start();
    }

    @AfterEach
    void stopRedis() throws Exception {
        redis.close();
    }

    private RedisThrottleWindow window() {
        RedisStoreSettings settings = RedisTestSettings.of(redis.url());
        return new RedisThrottleWindow(settings, settings.throttleKey(BASE_URL), Runnable::run, scheduler);
    }

    /** Listens, and returns once the subscription is in place (the window in force, if any, already heard). */
    private static BlockingQueue<Duration> listening(RedisThrottleWindow w) {
        BlockingQueue<Duration> heard = new LinkedBlockingQueue<>();
        w.listen(heard::add);
        Eventually.await("the window to subscribe", w::subscribed);
        return heard;
    }

    /** What was heard within a moment, or null. */
    private static Duration pollQuietly(BlockingQueue<Duration> heard) {
        try {
            return heard.poll(200, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Test
    void aWindowAnnouncedByOneJvmIsHeardByTheOthersButNotByItself() throws Exception {
        try (RedisThrottleWindow a = window();
                RedisThrottleWindow b = window();
                RedisThrottleWindow c = window()) {
            BlockingQueue<Duration> heardByA = listening(a);
            BlockingQueue<Duration> heardByB = listening(b);
            BlockingQueue<Duration> heardByC = listening(c);

            a.announce(Duration.ofSeconds(3));

            assertThat(heardByB.poll(5, TimeUnit.SECONDS)).isEqualTo(Duration.ofSeconds(3));
            assertThat(heardByC.poll(5, TimeUnit.SECONDS)).isEqualTo(Duration.ofSeconds(3));
            // A shorter window inside the one in force changes nothing, so nobody hears of it.
            b.announce(Duration.ofSeconds(1));
            c.announce(Duration.ofSeconds(4));
            assertThat(heardByA.poll(5, TimeUnit.SECONDS)).isEqualTo(Duration.ofSeconds(4));
            assertThat(heardByB.poll(5, TimeUnit.SECONDS)).isEqualTo(Duration.ofSeconds(4));
            assertThat(heardByA).isEmpty();
            assertThat(heardByC).as("its own announcement").isEmpty();
        }
    }

    @Test
    void aJvmThatStartsDuringAWindowLearnsWhatIsLeftOfIt() throws Exception {
        try (RedisThrottleWindow first = window();
                RedisThrottleWindow late = window()) {
            first.announce(Duration.ofSeconds(30));

            BlockingQueue<Duration> heard = listening(late);

            Duration left = heard.poll(5, TimeUnit.SECONDS);
            assertThat(left).isBetween(Duration.ofSeconds(20), Duration.ofSeconds(30));
        }
    }

    @Test
    void theSubscriptionComesBackAfterRedisRestarts() throws Exception {
        try (RedisThrottleWindow a = window();
                RedisThrottleWindow b = window()) {
            BlockingQueue<Duration> heardByB = listening(b);

            redis.kill();
            a.announce(Duration.ofSeconds(2));
            redis.restart();
            // Announced until the subscription is back: an announcement while it is away is not heard.
            Duration heard = Eventually.settled(
                    Duration.ofSeconds(20),
                    () -> {
                        a.announce(Duration.ofSeconds(5));
                        return pollQuietly(heardByB);
                    },
                    d -> d != null);
            assertThat(heard).as("heard after the restart").isNotNull().isLessThanOrEqualTo(Duration.ofSeconds(5));
        }
    }

    @Test
    void windowsNoJvmCouldHaveAnnouncedAreIgnoredAndAYearIsHeardAsAYearForTheGateToCut() throws Exception {
        try (RedisThrottleWindow w = window();
                redis.clients.jedis.Jedis other = new redis.clients.jedis.Jedis("127.0.0.1", redis.port())) {
            BlockingQueue<Duration> heard = listening(w);
            String channel = RedisTestSettings.of(redis.url()).throttleKey(BASE_URL);

            other.publish(channel, Long.MAX_VALUE + " someone-else");
            other.publish(channel, "9223372036854775808 someone-else");
            other.publish(channel, "-5 someone-else");
            other.publish(channel, "31536000000 someone-else");

            assertThat(heard.poll(5, TimeUnit.SECONDS))
                    .as("only the year: ThrottleGate cuts it to apiwarden.backoff.max-delay")
                    .isEqualTo(Duration.ofDays(365));
            assertThat(heard).isEmpty();
        }
    }

    @Test
    void aWindowIsAPositiveNumberOfMillisecondsATimerCanWaitFor() {
        assertThat(RedisThrottleWindow.window(31_536_000_000L)).isEqualTo(Duration.ofDays(365));
        assertThat(RedisThrottleWindow.window(RedisThrottleWindow.LONGEST_READABLE_MILLIS)
                        .toNanos())
                .isPositive();
        assertThat(RedisThrottleWindow.window(Long.MAX_VALUE)).isNull();
        assertThat(RedisThrottleWindow.window(0)).isNull();
        assertThat(RedisThrottleWindow.window(-1))
                .as("a key that never expires")
                .isNull();
    }

    @Test
    void theKeyIsTheApisNotAnOAuthClients() {
        RedisStoreSettings derived = RedisTestSettings.of("redis://127.0.0.1:6379");
        assertThat(derived.throttleKey(BASE_URL))
                .startsWith("apiwarden:")
                .endsWith(":throttle")
                .isEqualTo(derived.throttleKey(URI.create("HTTPS://API.example.com:443/v1")))
                .isNotEqualTo(derived.throttleKey(URI.create("https://other.example.com/v1")));
        RedisStoreSettings named = RedisTestSettings.of("redis://127.0.0.1:6379", "apiwarden.store.key", "orders");
        assertThat(named.throttleKey(BASE_URL)).isEqualTo("orders:throttle");
    }
}
