package io.apiwarden.core.config;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * How to reach the Redis that holds the token state, read from the {@code apiwarden.store*} properties.
 * Immutable; never shows the password or the encryption key. Plain Java: reading the settings loads no
 * Redis client class.
 */
public final class RedisStoreSettings {
    /**
     * A call that needs a token may wait on the store, for each operation. Redis answers in well under a
     * millisecond on a LAN, and a TLS handshake with a managed Redis in another zone takes a few tens of
     * milliseconds; 500 ms also covers the pause of a Redis forking for a snapshot, yet keeps what a dead
     * store costs a waiting call to half a second an operation before the agent carries on with the tokens
     * it has. {@link ConfigProperty#STORE_TIMEOUT} documents the same value.
     */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(500);
    /** A store that needs longer than this to answer is, for a call waiting on it, down. */
    static final Duration MAX_TIMEOUT = Duration.ofSeconds(10);
    /** Redis's own default port. */
    static final int DEFAULT_PORT = 6379;
    /** AES-256. */
    static final int KEY_BYTES = 32;
    /** Keys are short names; a longer prefix is a mistake, and every key is sent with each command. */
    static final int MAX_KEY_PREFIX_LENGTH = 200;
    /** 64 bits of the hash: enough that two OAuth clients in one Redis never meet by chance. */
    private static final int PREFIX_HASH_HEX_DIGITS = 16;

    private final boolean tls;
    private final String host;
    private final int port;
    private final int database;
    private final String user;
    private final String password;
    private final String keyPrefix;
    private final Duration timeout;
    private final byte[] encryptionKey;
    /** The property naming the password's file, when the password came from one: it is followed as it changes. */
    private String passwordProperty;

    private Path passwordFile;
    /** How often, at most, the password and encryption key files are looked at for a change. */
    private Duration checkInterval;
    /** The property naming the encryption key's file: it is followed as it changes, the key before kept for reading. */
    private String encryptionKeyProperty;

    private Path encryptionKeyFile;

    RedisStoreSettings(
            boolean tls,
            String host,
            int port,
            int database,
            String user,
            String password,
            String keyPrefix,
            Duration timeout,
            byte[] encryptionKey) {
        this.tls = tls;
        this.host = host;
        this.port = port;
        this.database = database;
        this.user = user;
        this.password = password;
        this.keyPrefix = keyPrefix;
        this.timeout = timeout;
        this.encryptionKey = encryptionKey == null ? null : encryptionKey.clone();
    }

    /** Whether {@code apiwarden.store}'s value names a Redis: {@code redis://} or {@code rediss://}. */
    public static boolean isRedisUrl(String storeValue) {
        if (storeValue == null) {
            return false;
        }
        String v = storeValue.trim().toLowerCase(Locale.ROOT);
        return v.startsWith("redis://") || v.startsWith("rediss://");
    }

    /**
     * Reads the settings from raw property values. For a store named by {@link #isRedisUrl}: any other
     * {@code apiwarden.store} value is a problem here.
     *
     * @param raw the value of a property, by its key ({@code apiwarden.store}...), or null when unset
     * @return the settings, or the problems that stop them, each naming the property and what to do
     */
    public static Parsed parse(Function<String, String> raw) {
        Problems problems = new Problems();
        SectionReader reader = new SectionReader(
                PropertySource.of(raw, java.util.List.of(), java.util.Map.of(), problems), problems, null);
        RedisStoreSettings settings = RedisStoreReader.read(reader);
        return new Parsed(settings, problems.problems(), problems.warnings());
    }

    /** What {@link #parse} found: settings when the store is configured and sound, otherwise problems. */
    public static final class Parsed {
        private final RedisStoreSettings settings;
        private final List<String> problems;
        private final List<String> warnings;

        Parsed(RedisStoreSettings settings, List<String> problems, List<String> warnings) {
            this.settings = problems.isEmpty() ? settings : null;
            this.problems = List.copyOf(problems);
            this.warnings = List.copyOf(warnings);
        }

        /** The settings, or null when {@code apiwarden.store} is unset or there are problems. */
        public RedisStoreSettings settings() {
            return settings;
        }

        /** What must change before the store can be used; never quotes a secret. */
        public List<String> problems() {
            return problems;
        }

        /** Settings that work but weaken the store's protection; never quotes a secret. */
        public List<String> warnings() {
            return warnings;
        }
    }

    /** True for {@code rediss://}. */
    public boolean tls() {
        return tls;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public int database() {
        return database;
    }

    /** The user name to authenticate as, or null for the default user. */
    public String user() {
        return user;
    }

    /** The password, or null when the server asks for none. A secret: only the Redis link reads it, to authenticate. */
    public String password() {
        return password;
    }

    /** These settings, with the password read from {@code file} again as it changes. */
    RedisStoreSettings followingPasswordFile(String property, Path file, Duration checkInterval) {
        RedisStoreSettings s = copy();
        s.passwordProperty = property;
        s.passwordFile = file;
        s.checkInterval = checkInterval;
        return s;
    }

    /** These settings, with the encryption key read from {@code file} again as it changes. */
    RedisStoreSettings followingEncryptionKeyFile(String property, Path file, Duration checkInterval) {
        RedisStoreSettings s = copy();
        s.encryptionKeyProperty = property;
        s.encryptionKeyFile = file;
        s.checkInterval = checkInterval;
        return s;
    }

    private RedisStoreSettings copy() {
        RedisStoreSettings s =
                new RedisStoreSettings(tls, host, port, database, user, password, keyPrefix, timeout, encryptionKey);
        s.passwordProperty = passwordProperty;
        s.passwordFile = passwordFile;
        s.checkInterval = checkInterval;
        s.encryptionKeyProperty = encryptionKeyProperty;
        s.encryptionKeyFile = encryptionKeyFile;
        return s;
    }

    /** The file the password came from, which the Redis link follows as it changes; null when it came from the URL. */
    public Path passwordFile() {
        return passwordFile;
    }

    /** The property that names {@link #passwordFile}, for log lines. */
    public String passwordProperty() {
        return passwordProperty;
    }

    /** How often, at most, {@link #passwordFile} and {@link #encryptionKeyFile} are looked at for a change. */
    public Duration checkInterval() {
        return checkInterval;
    }

    /** The time limit of each operation. */
    public Duration timeout() {
        return timeout;
    }

    /** Whether the tokens are stored encrypted. */
    public boolean encrypted() {
        return encryptionKey != null;
    }

    /**
     * The file the encryption key came from, which the store follows as it changes (keeping the key before for
     * reading); null when there is no key.
     */
    public Path encryptionKeyFile() {
        return encryptionKeyFile;
    }

    /** The property that names {@link #encryptionKeyFile}, for log lines. */
    public String encryptionKeyProperty() {
        return encryptionKeyProperty;
    }

    /**
     * The AES-256 key a key file holds: 32 bytes in base64.
     *
     * @throws IllegalArgumentException saying what is wrong and what to do, never quoting the content
     */
    public static byte[] encryptionKey(byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8).trim();
        byte[] key;
        try {
            key = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "does not hold base64: write a 32-byte key in base64 into it (openssl rand -base64 32)", e);
        }
        if (key.length != KEY_BYTES) {
            Arrays.fill(key, (byte) 0);
            throw new IllegalArgumentException("holds a " + key.length + "-byte key: AES-256 takes " + KEY_BYTES
                    + " bytes, in base64 (openssl rand -base64 32)");
        }
        return key;
    }

    /** The AES-256 key, or null. A secret: only the store reads it, to encrypt and decrypt. */
    public byte[] encryptionKey() {
        return encryptionKey == null ? null : encryptionKey.clone();
    }

    /**
     * The prefix of the keys for one OAuth client: {@code apiwarden.store.key} when set, otherwise
     * {@code apiwarden:} and a hash of the token URL and client id, so that two clients sharing one Redis
     * never read each other's tokens. JVMs that share a client must be given the same token URL
     * (scheme and host case and a default port do not matter) and client id, or the same key.
     */
    public String keyPrefix(URI tokenUrl, String clientId) {
        return keyPrefix(tokenUrl, clientId, null);
    }

    /** As above; a {@code grantIdentity} (grant and scope, or null) goes into the hash too, when there is one. */
    public String keyPrefix(URI tokenUrl, String clientId, String grantIdentity) {
        return keyPrefix != null ? keyPrefix : derivedKeyPrefix(tokenUrl, clientId, grantIdentity);
    }

    /**
     * The key of the API's rate-limit window: {@code apiwarden.store.key} and {@code :throttle} when
     * set, otherwise a hash of the API's base URL. The limit is the API's, not an OAuth client's:
     * every JVM that calls the same API shares the window, whichever client it holds tokens for.
     */
    public String throttleKey(URI baseUrl) {
        return (keyPrefix != null ? keyPrefix : derivedKeyPrefix(baseUrl, "throttle")) + ":throttle";
    }

    /**
     * The key of a server's latest DPoP nonce: the token endpoint's ({@code tokenEndpoint}) or the API's, each
     * {@code server} named by its URL. A nonce is the server's, not an OAuth client's: every JVM talking to that
     * server shares it. With {@code apiwarden.store.key} set, that key and which of the two servers it is.
     */
    public String dpopNonceKey(URI server, boolean tokenEndpoint) {
        String which = tokenEndpoint ? "token-dpop-nonce" : "api-dpop-nonce";
        return (keyPrefix != null ? keyPrefix : derivedKeyPrefix(server, which)) + ":" + which;
    }

    static String derivedKeyPrefix(URI tokenUrl, String clientId) {
        return derivedKeyPrefix(tokenUrl, clientId, null);
    }

    static String derivedKeyPrefix(URI tokenUrl, String clientId, String grantIdentity) {
        // Without a grant identity the text hashed is what it always was, so running fleets keep their keys.
        String identity = (tokenUrl == null ? "" : normalized(tokenUrl)) + "\n" + (clientId == null ? "" : clientId)
                + (grantIdentity == null ? "" : "\n" + grantIdentity);
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder("apiwarden:");
            for (int i = 0; i < PREFIX_HASH_HEX_DIGITS / 2; i++) {
                hex.append(String.format(Locale.ROOT, "%02x", hash[i]));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static String normalized(URI url) {
        URI u = url.normalize();
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        String host = u.getHost() == null ? "" : u.getHost().toLowerCase(Locale.ROOT);
        int port = u.getPort();
        boolean defaultPort =
                port == -1 || (scheme.equals("https") && port == 443) || (scheme.equals("http") && port == 80);
        return scheme + "://" + host + (defaultPort ? "" : ":" + port) + (u.getRawPath() == null ? "" : u.getRawPath())
                + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    }

    /** {@code redis host:port/db} or {@code rediss host:port/db}: never the user or password. */
    public String describe() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return (tls ? "rediss " : "redis ") + h + ":" + port + "/" + database;
    }

    /** Never shows the user, the password or the encryption key. */
    @Override
    public String toString() {
        return "RedisStoreSettings{" + describe() + ", password=" + (password == null ? "<none>" : "<set>")
                + ", key=" + (keyPrefix == null ? "<derived>" : keyPrefix) + ", timeout=" + Durations.format(timeout)
                + ", encryption=" + (encryptionKey == null ? "off" : "AES-256-GCM") + "}";
    }
}
