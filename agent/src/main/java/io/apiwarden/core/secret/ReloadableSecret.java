package io.apiwarden.core.secret;

import io.apiwarden.core.log.AgentLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Function;

/**
 * A secret or key from a {@code *-file} property that follows the file as it changes, with no restart: Kubernetes
 * updates a mounted Secret by swapping its {@code ..data} link to a new folder, Vault Agent re-renders its files.
 *
 * <p>The file is looked at (where its path leads, its modification time and size: no read) when {@link #get} is
 * asked for the value at least {@code checkInterval} after the last look, never more often, and at once on
 * {@link #checkNow} (after the token endpoint refused the credentials). Only a file that looks different is read
 * again, and only new content replaces the value, with one info line naming the property, never the value. A file
 * that turns bad (gone, empty, unreadable, too big, not a key) keeps the last good value, with one warning until it
 * is good again.
 *
 * @param <T> the value the content stands for: the text of a secret, a private key, a key store's bytes
 */
public final class ReloadableSecret<T> {
    private final String property;
    private final Path file;
    private final Function<byte[], T> parse;
    private final Clock clock;
    private final Duration checkInterval;

    private volatile T value;
    private volatile Instant nextLook;
    /**
     * {@link #nextLook} in epoch milliseconds, rounded down, for {@link #get}: asked on every managed call, it then
     * reads the clock as a long and makes no {@link Instant}. Rounded down, it sends {@link #get} to {@link #look} up
     * to a millisecond early, which looks at {@link #nextLook} itself.
     */
    private volatile long nextLookMillis;
    /** Guarded by {@code this}. */
    private Look lastLook;
    /** Guarded by {@code this}: the SHA-256 of the content {@link #value} came from, so that the same content is no news. */
    private byte[] contentHash;
    /** Guarded by {@code this}: a warning was given for the present bad state of the file. */
    private boolean warned;

    private ReloadableSecret(
            String property, Path file, Function<byte[], T> parse, Clock clock, Duration checkInterval) {
        this.property = property;
        this.file = file;
        this.parse = parse;
        this.clock = clock;
        this.checkInterval = checkInterval;
    }

    /**
     * Reads {@code file} now, for the value to start with, and follows it from then on.
     *
     * @param property the property that names the file, for log lines
     * @param parse turns the content into the value; throws {@link IllegalArgumentException} with a message that
     *     says what is wrong (never quoting the content) when it cannot
     * @throws IOException when the file cannot be read or its content cannot be used now (the message says why,
     *     without the content)
     */
    public static <T> ReloadableSecret<T> open(
            String property, Path file, Function<byte[], T> parse, Clock clock, Duration checkInterval)
            throws IOException {
        ReloadableSecret<T> secret = new ReloadableSecret<>(property, file, parse, clock, checkInterval);
        synchronized (secret) {
            Look look = Look.at(file);
            byte[] content = SecretFile.readBytes(file);
            secret.value = secret.parsed(content);
            secret.contentHash = sha256(content);
            secret.lastLook = look;
            secret.lookNextAt(clock.instant().plus(checkInterval));
        }
        return secret;
    }

    private void lookNextAt(Instant at) {
        nextLook = at;
        long millis;
        try {
            millis = at.toEpochMilli();
        } catch (ArithmeticException e) {
            millis = Long.MAX_VALUE; // a check interval of ages: never again
        }
        nextLookMillis = millis;
    }

    /** A value set in a property, not a file: it never changes. */
    public static <T> ReloadableSecret<T> fixed(String property, T value) {
        ReloadableSecret<T> secret = new ReloadableSecret<>(property, null, null, Clock.systemUTC(), Duration.ZERO);
        secret.value = value;
        secret.nextLook = Instant.MAX;
        secret.nextLookMillis = Long.MAX_VALUE;
        return secret;
    }

    /** The value, after a look at the file when the check interval has passed since the last. */
    public T get() {
        if (file != null && clock.millis() >= nextLookMillis) {
            look(false);
        }
        return value;
    }

    /** Looks at the file now and reads it again if it changed; true when the value changed. */
    public boolean checkNow() {
        return look(true);
    }

    /** Whether the value comes from a file, and may change. */
    public boolean followsAFile() {
        return file != null;
    }

    /** The property that names the file. */
    public String property() {
        return property;
    }

    private synchronized boolean look(boolean now) {
        if (file == null) {
            return false;
        }
        Instant at = clock.instant();
        if (!now && at.isBefore(nextLook)) {
            return false; // another thread looked meanwhile
        }
        lookNextAt(at.plus(checkInterval));
        Look look;
        byte[] hash;
        T parsedValue;
        try {
            look = Look.at(file);
            if (look.equals(lastLook) && !warned) {
                return false;
            }
            byte[] content = SecretFile.readBytes(file);
            hash = sha256(content);
            if (Arrays.equals(hash, contentHash)) {
                // Touched, not changed (Kubernetes' swap moves every key of a Secret when one changes): the value
                // already parsed stands, and is not parsed again.
                warned = false;
                lastLook = look;
                return false;
            }
            parsedValue = parsed(content);
        } catch (IOException | RuntimeException e) {
            if (!warned) {
                warned = true;
                AgentLog.warn(property + " (" + file + ") can no longer be used: " + reason(e)
                        + "; the last good value is kept until the file is fixed");
            }
            return false;
        }
        warned = false;
        lastLook = look;
        contentHash = hash;
        value = parsedValue;
        AgentLog.info(property + " (" + file + ") changed: its new value is used from now on");
        return true;
    }

    private T parsed(byte[] content) throws IOException {
        if (new String(content, StandardCharsets.UTF_8).trim().isEmpty()) {
            throw new SecretFile.Unusable("is empty");
        }
        try {
            return Objects.requireNonNull(parse.apply(content), "no value");
        } catch (IllegalArgumentException e) {
            throw new SecretFile.Unusable(e.getMessage());
        }
    }

    /** Why the file cannot be used, from its exception: the agent's own messages say it; others are named only. */
    private static String reason(Exception e) {
        if (e instanceof SecretFile.Unusable) {
            return e.getMessage();
        }
        return "it cannot be read (" + e.getClass().getSimpleName() + ")";
    }

    private static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Never shows the value. */
    @Override
    public String toString() {
        return "ReloadableSecret{" + property + "=" + file + "}";
    }

    /**
     * What the file is, without reading it: the real file its path leads to (a {@code ..data} swap points the same
     * path at another file), its modification time and its size.
     */
    private static final class Look {
        private final Path real;
        private final FileTime modified;
        private final long size;

        private Look(Path real, FileTime modified, long size) {
            this.real = real;
            this.modified = modified;
            this.size = size;
        }

        static Look at(Path file) throws IOException {
            Path real = file.toRealPath();
            BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class);
            return new Look(real, attributes.lastModifiedTime(), attributes.size());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Look
                    && ((Look) o).real.equals(real)
                    && ((Look) o).modified.equals(modified)
                    && ((Look) o).size == size;
        }

        @Override
        public int hashCode() {
            return Objects.hash(real, modified, size);
        }
    }
}
