package io.apiwarden.core.token.store.redis;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.log.ApiLog;
import io.apiwarden.core.throttle.FleetWindow;
import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.core.token.store.StoreUnavailableException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Protocol.Command;

/**
 * The fleet's rate-limit window in Redis: one key, {@code <prefix>:throttle}, that lives as long as
 * the window, and a channel of the same name on which each new or longer window is published. A JVM
 * learns a window within one round trip of its announcement (the subscription), and a JVM that
 * starts during one learns it from the key.
 *
 * <p>Windows travel as durations, never as clock times: the JVMs' clocks need not agree. The
 * subscription has a connection and a thread of its own, pinged every {@link #PING_EVERY} so a
 * connection that died quietly is noticed within {@link #SILENCE_LIMIT}, and opened again after a
 * failure, 1 s later and doubling to {@link #LONGEST_RECONNECT_WAIT}.
 */
public final class RedisThrottleWindow implements FleetWindow {
    static final Duration PING_EVERY = Duration.ofSeconds(20);
    static final Duration SILENCE_LIMIT = Duration.ofSeconds(60);
    static final Duration LONGEST_RECONNECT_WAIT = Duration.ofSeconds(30);
    /**
     * The longest window read from the key or the channel: the longest a timer can be set for (a
     * long of nanoseconds, 292 years). Anything longer is not a window but garbage, and ignored; the
     * gate cuts what is read here to its own longest window ({@code apiwarden.backoff.max-delay}).
     */
    static final long LONGEST_READABLE_MILLIS = Long.MAX_VALUE / 1_000_000L;

    /** KEYS[1] the window; ARGV: its length in ms, the announcer. Only a longer window replaces the one in force. */
    private static final byte[] ANNOUNCE = bytes("local left = redis.call('PTTL', KEYS[1])\n"
            + "if left >= tonumber(ARGV[1]) then return 0 end\n"
            + "redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[1])\n"
            + "redis.call('PUBLISH', KEYS[1], ARGV[1] .. ' ' .. ARGV[2])\n"
            + "return 1\n");

    private final RedisStoreSettings settings;
    private final String key;
    private final Executor io;
    private final DelayScheduler scheduler;
    private final RedisLink link;
    /** Tells this JVM's announcements apart from the others' on the channel. */
    private final String self;

    private final ApiLog log;

    private volatile boolean closed;
    /** Opened by {@link #close()}: ends the subscription's wait between two connections at once, not after it. */
    private final CountDownLatch closing = new CountDownLatch(1);

    private volatile Subscription subscription;

    /**
     * @param key   the window's key and channel
     * @param io    where announcements are sent from: never an app's thread
     */
    public RedisThrottleWindow(RedisStoreSettings settings, String key, Executor io, DelayScheduler scheduler) {
        this(settings, key, io, scheduler, ApiLog.UNNAMED);
    }

    /** As above, logging to {@code log} (which names the API when there are several). */
    public RedisThrottleWindow(
            RedisStoreSettings settings, String key, Executor io, DelayScheduler scheduler, ApiLog log) {
        this.log = log;
        this.settings = settings;
        this.key = key;
        this.io = io;
        this.scheduler = scheduler;
        this.link = new RedisLink(settings);
        byte[] r = new byte[8];
        new SecureRandom().nextBytes(r);
        StringBuilder id =
                new StringBuilder().append(ProcessHandle.current().pid()).append(':');
        for (byte b : r) {
            id.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        this.self = id.toString();
    }

    @Override
    public void announce(Duration window) {
        long millis = window.toMillis();
        if (millis <= 0 || closed) {
            return;
        }
        try {
            io.execute(() -> {
                try {
                    link.execute(new CommandArguments(Command.EVAL)
                            .add(ANNOUNCE)
                            .add(1)
                            .add(key)
                            .add(millis)
                            .add(self));
                } catch (StoreUnavailableException e) {
                    log.once(
                            AgentLog.Level.WARN,
                            "throttle-announce",
                            "a rate-limit window could not be shared through " + describe() + ": " + e.getMessage()
                                    + "; each JVM keeps its own window until it can",
                            null);
                }
            });
        } catch (RuntimeException e) {
            log.debug("a rate-limit window was not shared: " + e.getClass().getSimpleName());
        }
    }

    @Override
    public void listen(Consumer<Duration> heard) {
        if (closed || subscription != null) {
            return;
        }
        Subscription s = new Subscription(heard);
        subscription = s;
        Thread t = new Thread(s::run, "apiwarden-throttle-fleet");
        t.setDaemon(true);
        t.setContextClassLoader(null);
        t.start();
    }

    @Override
    public String describe() {
        return settings.describe() + " (" + key + ")";
    }

    /** Whether the subscription is in place now. */
    boolean subscribed() {
        Subscription s = subscription;
        return s != null && s.isSubscribed();
    }

    @Override
    public void close() {
        closed = true;
        closing.countDown();
        Subscription s = subscription;
        if (s != null) {
            s.stop();
        }
        link.close();
    }

    /** The subscription's loop: connect, learn the window in force, then hear every new one, until closed. */
    private final class Subscription extends JedisPubSub {
        private final Consumer<Duration> heard;
        private final DeadlineSockets sockets = new DeadlineSockets(settings.host(), settings.port(), settings.tls());
        private volatile Connection connection;
        private volatile DelayScheduler.Scheduled pinger;

        Subscription(Consumer<Duration> heard) {
            this.heard = heard;
        }

        void run() {
            long waitMillis = 1000;
            while (!closed) {
                try {
                    sockets.deadline(System.nanoTime() + settings.timeout().toNanos());
                    Connection c = new CheckedConnection(sockets, link.clientConfig());
                    connection = c;
                    Object left = c.executeCommand(new CommandArguments(Command.PTTL).add(key));
                    // -2: no window in force; -1: a key that never expires, which no JVM of the fleet sets.
                    Duration window = left instanceof Long && (Long) left != -2 ? window((Long) left) : null;
                    if (window != null) {
                        heard.accept(window);
                    }
                    waitMillis = 1000;
                    keepAlive();
                    proceed(c, key);
                } catch (RuntimeException | Error e) {
                    // Replies are bounded (CheckedConnection), so an Error here is not Redis's doing; whatever it is,
                    // this thread goes on trying, no faster than the waits below, and never ends with a stack trace.
                    if (!closed) {
                        ReplyLimits.RefusedReply refused = RedisLink.refusedReply(e);
                        log.once(
                                AgentLog.Level.WARN,
                                "throttle-listen",
                                "rate-limit windows of other JVMs cannot be heard "
                                        + "through " + describe() + " ("
                                        + (refused != null
                                                ? "it " + RedisLink.answered(refused)
                                                : e.getClass().getSimpleName())
                                        + "); trying again, and each JVM keeps its own window meanwhile",
                                null);
                    }
                } finally {
                    stopPinging();
                    closeConnection();
                }
                if (!closed) {
                    sleep(waitMillis);
                    waitMillis = Math.min(waitMillis * 2, LONGEST_RECONNECT_WAIT.toMillis());
                }
            }
        }

        @Override
        public void onMessage(String channel, String message) {
            int space = message.indexOf(' ');
            if (space <= 0 || message.substring(space + 1).equals(self)) {
                return;
            }
            try {
                Duration window = window(Long.parseLong(message.substring(0, space)));
                if (window != null) {
                    heard.accept(window);
                }
            } catch (NumberFormatException e) {
                log.debug("a message on " + key + " was not a window (not a number of milliseconds a long can hold)");
            } catch (RuntimeException e) {
                log.debug("a heard window could not be used: " + e.getClass().getSimpleName());
            }
        }

        /** Every read of the subscription must see an answer within the silence limit; each ping earns one. */
        private void keepAlive() {
            sockets.deadline(System.nanoTime() + SILENCE_LIMIT.toNanos());
            pinger = scheduler.schedule(PING_EVERY, this::pingNow);
        }

        private void pingNow() {
            if (closed || connection == null) {
                return;
            }
            try {
                sockets.deadline(System.nanoTime() + SILENCE_LIMIT.toNanos());
                if (isSubscribed()) {
                    ping(key);
                }
                pinger = scheduler.schedule(PING_EVERY, this::pingNow);
            } catch (RuntimeException e) {
                // The reading side fails too and opens a new connection.
                closeConnection();
            }
        }

        void stop() {
            try {
                if (isSubscribed()) {
                    unsubscribe();
                }
            } catch (RuntimeException ignored) {
                // closing: the connection is dropped next
            }
            closeConnection();
        }

        private void stopPinging() {
            DelayScheduler.Scheduled p = pinger;
            if (p != null) {
                p.cancel();
            }
        }

        private void closeConnection() {
            Connection c = connection;
            connection = null;
            RedisLink.closeQuietly(c);
        }

        private void sleep(long millis) {
            try {
                // Not a plain sleep: a window closed during a wait of up to LONGEST_RECONNECT_WAIT would leave this
                // thread behind for that long.
                closing.await(millis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closed = true;
            }
        }
    }

    /**
     * The window {@code millis} read from Redis stands for; null, with one debug line, when it is none
     * a JVM could have announced (not positive, or beyond {@link #LONGEST_READABLE_MILLIS}).
     */
    static Duration window(long millis) {
        if (millis <= 0 || millis > LONGEST_READABLE_MILLIS) {
            AgentLog.debug(
                    "a rate-limit window of " + millis + " ms read from Redis was ignored: a window lasts more than"
                            + " 0 ms and less than " + LONGEST_READABLE_MILLIS + " ms");
            return null;
        }
        return Duration.ofMillis(millis);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
