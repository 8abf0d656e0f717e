package io.apiwarden.core.token.store.redis;

import io.apiwarden.core.config.ConfigProperty;
import io.apiwarden.core.config.Durations;
import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.token.store.StoreUnavailableException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLException;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.DefaultRedisCredentials;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisCredentialsProvider;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * One connection to the store's Redis, opened on first use and opened again after it fails, so that a
 * restarted or failed-over Redis is used again without a new store. Operations take turns on it: the
 * store is used when tokens are refreshed, a few commands at a time, and one connection keeps each
 * operation's time bound simple. Every operation ends within the store's time-out, waiting for its
 * turn included.
 */
final class RedisLink implements AutoCloseable {
    private final String description;
    private final long timeoutNanos;
    private final String timeoutText;
    private final DeadlineSockets sockets;
    private final JedisClientConfig config;
    /**
     * The log-in of each store's settings, built once for every link to it (the token store's, the nonces', the
     * rate-limit window's): one follower of the password file, so one look per check interval and one info line per
     * rotation, not one per link. Weak: the settings of a configuration gone take their log-in with them.
     */
    private static final Map<RedisStoreSettings, JedisClientConfig> CONFIGS =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final ReentrantLock turn = new ReentrantLock();
    /** Guarded by {@link #turn}; volatile for {@link #close()}, which may give up waiting for the turn. */
    private volatile Connection connection;

    private volatile boolean closed;

    RedisLink(RedisStoreSettings settings) {
        this.description = settings.describe();
        this.timeoutNanos = settings.timeout().toNanos();
        this.timeoutText = Durations.format(settings.timeout());
        this.sockets = new DeadlineSockets(settings.host(), settings.port(), settings.tls());
        // No time-outs here: Jedis's own apply to its socket factory, and DeadlineSockets bounds every step.
        this.config = CONFIGS.computeIfAbsent(settings, RedisLink::clientConfig);
    }

    /**
     * How every connection of this link logs in, built once: the password follower in it is asked for the current
     * password on each connect, so a rotated one is used without building anything again.
     */
    JedisClientConfig clientConfig() {
        return config;
    }

    /** How every connection to the store's Redis logs in: user, password, database. */
    private static JedisClientConfig clientConfig(RedisStoreSettings settings) {
        return DefaultJedisClientConfig.builder()
                .credentialsProvider(credentials(settings))
                .database(settings.database())
                // CLIENT SETINFO would cost two more round trips on every connect, to label the connection.
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED)
                .build();
    }

    /**
     * The user and password each new connection logs in with: a password from a file is the file's as it is when
     * the connection is made (looked at no more often than the check interval), so a rotated password is used
     * from the next connection on, while the ones open stay logged in.
     */
    private static RedisCredentialsProvider credentials(RedisStoreSettings settings) {
        ReloadableSecret<String> password = ReloadableSecret.fixed("password", settings.password());
        if (settings.passwordFile() != null) {
            try {
                password = ReloadableSecret.open(
                        settings.passwordProperty(),
                        settings.passwordFile(),
                        bytes -> new String(bytes, StandardCharsets.UTF_8).trim(),
                        Clock.systemUTC(),
                        settings.checkInterval());
            } catch (IOException | RuntimeException e) {
                // Read a moment ago by the configuration: the password read then is used, and the file not followed.
            }
        }
        ReloadableSecret<String> current = password;
        String user = settings.user();
        return () -> new DefaultRedisCredentials(user, current.get());
    }

    /**
     * Runs one command and returns Redis's reply: {@code byte[]} for strings and statuses, {@code Long}
     * for integers, a {@code List} for arrays, null for nil.
     */
    Object execute(CommandArguments command) throws StoreUnavailableException {
        long deadline = System.nanoTime() + timeoutNanos;
        takeTurn(deadline);
        try {
            if (closed) {
                throw new StoreUnavailableException("the token store at " + description + " is closed");
            }
            sockets.deadline(deadline);
            boolean kept = connection != null;
            try {
                return connection().executeCommand(command);
            } catch (JedisConnectionException e) {
                drop();
                if (closed) {
                    throw new StoreUnavailableException(
                            "the token store at " + description + " was closed during the operation");
                }
                // A refused reply would be refused again on a new connection: no second try for it.
                if (!kept || System.nanoTime() - deadline >= 0 || refusedReply(e) != null) {
                    throw unavailable(e);
                }
            }
            // A connection kept from an earlier operation may have died with a restarted Redis or a dropped
            // idle connection: one more try on a new one. Repeating is safe even when the first try reached
            // Redis: a compare-and-set or a lease that already happened answers "no" the second time, and a
            // renewal or release done twice is the same as once.
            try {
                return connection().executeCommand(command);
            } catch (JedisConnectionException e) {
                drop();
                throw unavailable(e);
            }
        } catch (JedisDataException e) {
            throw refused(e);
        } catch (RuntimeException e) {
            drop();
            throw new StoreUnavailableException("unexpected failure on the token store at " + description + " ("
                    + e.getClass().getSimpleName() + ")");
        } finally {
            turn.unlock();
        }
    }

    /** Closes the connection; operations after it fail. Never throws. */
    @Override
    public void close() {
        // Waits at most one operation's time-out for the turn; closes anyway after that, which ends the
        // operation in flight with an I/O failure.
        boolean mine = false;
        try {
            mine = turn.tryLock(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            closed = true;
            drop();
        } finally {
            if (mine) {
                turn.unlock();
            }
        }
    }

    private void takeTurn(long deadline) throws StoreUnavailableException {
        try {
            if (!turn.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                throw new StoreUnavailableException("the token store at " + description + " is busy: another operation "
                        + "of this JVM did not end within " + timeoutText);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while waiting for the token store at " + description);
        }
    }

    private Connection connection() {
        if (connection == null) {
            connection = new CheckedConnection(sockets, config);
        }
        return connection;
    }

    private void drop() {
        Connection c = connection;
        connection = null;
        closeQuietly(c);
    }

    /** Closes a connection being given up (it failed, or its owner closes); closing it may fail too. */
    static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (RuntimeException ignored) {
                // given up anyway
            }
        }
    }

    /** The reply {@link ReplyLimits} refused beneath a failure, or null when it was something else. */
    static ReplyLimits.RefusedReply refusedReply(Throwable e) {
        Throwable root = rootOf(e);
        return root instanceof ReplyLimits.RefusedReply ? (ReplyLimits.RefusedReply) root : null;
    }

    /**
     * What a Redis that sent a reply the store never reads did, for a message: the limit it broke and
     * what to check; never what it sent.
     */
    static String answered(ReplyLimits.RefusedReply refused) {
        return "answered with " + refused.getMessage() + ": check that " + ConfigProperty.STORE.key()
                + " names a Redis server, and that " + ConfigProperty.STORE_KEY.key()
                + " is a key of this client's own";
    }

    private static Throwable rootOf(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /** Why Redis could not be reached, from the I/O failure underneath; never Redis's or Jedis's own text. */
    private StoreUnavailableException unavailable(JedisConnectionException e) {
        Throwable root = rootOf(e);
        String why;
        if (root instanceof ReplyLimits.RefusedReply) {
            why = answered((ReplyLimits.RefusedReply) root);
        } else if (root instanceof SocketTimeoutException) {
            why = "did not answer within " + timeoutText + " (" + ConfigProperty.STORE_TIMEOUT.key() + ")";
        } else if (root instanceof ConnectException) {
            why = "refused the connection: check that Redis runs there and that " + ConfigProperty.STORE.key()
                    + " names it";
        } else if (root instanceof UnknownHostException) {
            why = "is not a host name this JVM can look up: check " + ConfigProperty.STORE.key();
        } else if (root instanceof SSLException) {
            why = "failed the TLS handshake (" + root.getClass().getSimpleName()
                    + "): check that it speaks TLS, and that "
                    + "its certificate names the host and is trusted by this JVM";
        } else if (root == e) {
            // Jedis's own, with no I/O failure beneath: the server ended the connection.
            why = "closed the connection";
        } else {
            why = "lost the connection (" + root.getClass().getSimpleName() + ")";
        }
        // The I/O failure is kept as the cause for its stack; its message names no secret. Jedis's is not kept.
        return new StoreUnavailableException(
                "the token store at " + description + " " + why, root instanceof IOException ? root : null);
    }

    /**
     * The error code at the start of Redis's message, or the one a failed script passed on (Redis reports
     * those as {@code ERR Error running script ...: WRONGTYPE ...}). Only the code is ever shown.
     */
    private static String errorCode(String message) {
        // Redis 6 words a refusal by ACL inside a script this way, with no code of its own.
        if (message.contains("user executing the script can't")) {
            return "NOPERM";
        }
        for (String code : new String[] {"NOAUTH", "WRONGPASS", "NOPERM", "WRONGTYPE", "READONLY"}) {
            if (message.startsWith(code) || message.contains(": " + code + " ")) {
                return code;
            }
        }
        int space = message.indexOf(' ');
        String first = space < 0 ? message : message.substring(0, space);
        return first.matches("[A-Z]{2,20}") ? first : "an error";
    }

    /** Redis answered with an error: its code and what to check, never the rest of its text. */
    private StoreUnavailableException refused(JedisDataException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        String code = errorCode(message);
        String store = ConfigProperty.STORE.key();
        String why;
        switch (code) {
            case "NOAUTH":
                why = "asks for a password: give it in " + store + " or " + ConfigProperty.STORE_PASSWORD_FILE.key();
                break;
            case "WRONGPASS":
                why = "refused the user name or password: check the user in " + store + " and the password";
                break;
            case "NOPERM":
                why = "does not let this user run the store's commands (GET, SET, HMGET, HSET, EVAL, PEXPIRE, DEL) "
                        + "on its keys: check the user's ACL";
                break;
            case "WRONGTYPE":
                why = "holds a value of another kind under the store's key: another program uses it; set "
                        + ConfigProperty.STORE_KEY.key() + " to a prefix of this client's own";
                break;
            case "READONLY":
                why = "is a read-only replica: point " + store + " at the primary";
                break;
            default:
                if (message.contains("DB index")) {
                    why = "has no database with the number at the end of " + store;
                } else if (message.startsWith("ERR AUTH")) {
                    why = "has no password set, but one was given: remove it from " + store;
                } else {
                    why = "answered " + code;
                }
        }
        return new StoreUnavailableException("the token store at " + description + " " + why);
    }
}
