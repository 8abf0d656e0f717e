package io.apiwarden.core.config;

import io.apiwarden.core.secret.SecretFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
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
        return new SettingsReader(raw).read();
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

    /** The time limit of each operation. */
    public Duration timeout() {
        return timeout;
    }

    /** Whether the tokens are stored encrypted. */
    public boolean encrypted() {
        return encryptionKey != null;
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

    /** Reads and checks the properties; collects every problem rather than stopping at the first. */
    private static final class SettingsReader {
        private final Function<String, String> raw;
        private final List<String> problems = new ArrayList<>();
        private final List<String> warnings = new ArrayList<>();

        SettingsReader(Function<String, String> raw) {
            this.raw = raw;
        }

        Parsed read() {
            String url = value(ConfigProperty.STORE);
            if (url == null) {
                return new Parsed(null, problems, warnings);
            }
            URI uri = storeUri(url);
            Duration timeout = timeout();
            String keyPrefix = keyPrefix();
            byte[] encryptionKey = encryptionKey();
            if (uri == null) {
                return new Parsed(null, problems, warnings);
            }
            boolean tls = uri.getScheme().equalsIgnoreCase("rediss");
            int port = uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort();
            int database = database(uri);
            String[] credentials = credentials(uri);
            String host = uri.getHost().startsWith("[")
                    ? uri.getHost().substring(1, uri.getHost().length() - 1)
                    : uri.getHost();
            if (!tls && !isLoopback(host)) {
                warnings.add(where(ConfigProperty.STORE) + " is plain redis:// to " + host
                        + ": the password and the token state cross the network unencrypted; use rediss://");
            }
            if (encryptionKey == null) {
                warnings.add(
                        "the token state is kept in Redis unencrypted: whoever can read that Redis can use both tokens; set "
                                + ConfigProperty.STORE_ENCRYPTION_KEY_FILE.key());
            }
            RedisStoreSettings settings = new RedisStoreSettings(
                    tls, host, port, database, credentials[0], credentials[1], keyPrefix, timeout, encryptionKey);
            if (encryptionKey != null) {
                Arrays.fill(encryptionKey, (byte) 0);
            }
            return new Parsed(settings, problems, warnings);
        }

        private URI storeUri(String value) {
            ConfigProperty p = ConfigProperty.STORE;
            String shape = ": write it as redis://[user[:password]@]host[:port][/db] or rediss://... for TLS";
            URI uri;
            try {
                uri = new URI(value);
            } catch (URISyntaxException e) {
                // The reason only: the value itself may hold the password.
                problems.add(where(p) + " is not a valid URL (" + e.getReason() + ")" + shape
                        + "; percent-encode special characters of the password, or put it in "
                        + ConfigProperty.STORE_PASSWORD_FILE.key());
                return null;
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("redis") && !scheme.equals("rediss")) {
                problems.add(where(p) + " is not a Redis URL" + shape);
                return null;
            }
            if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                problems.add(where(p) + " has a query or fragment" + shape
                        + " (a # or ? in the password must be percent-encoded, or put the password in "
                        + ConfigProperty.STORE_PASSWORD_FILE.key() + ")");
                return null;
            }
            String port = Ports.text(uri.getRawAuthority());
            if (port != null && !Ports.isPort(port)) {
                // Caught here, at start-up: Jedis would fail only at the first connect, as a lost connection. The port
                // is quoted only when it is digits: a URL missing its @ could have the password where the port goes.
                problems.add(where(p)
                        + (port.matches("[0-9]{1,20}") ? " has port " + port : " has a port that is not a number")
                        + ", which no server can listen on (ports go from 1 to " + Ports.MAX + "; none means Redis's "
                        + DEFAULT_PORT + ")" + shape);
                return null;
            }
            if (uri.getHost() == null) {
                problems.add(where(p)
                        + " has no host name this JVM can use (letters, digits, dots and dashes; [::1] for IPv6)"
                        + shape);
                return null;
            }
            String path = uri.getPath();
            if (path != null && !path.isEmpty() && !path.equals("/") && !path.matches("/\\d{1,9}")) {
                problems.add(where(p) + " has a path that is not a database number" + shape);
                return null;
            }
            return uri;
        }

        private static int database(URI uri) {
            String path = uri.getPath();
            return path == null || path.length() <= 1 ? 0 : Integer.parseInt(path.substring(1));
        }

        /** {user or null, password or null}. */
        private String[] credentials(URI uri) {
            String user = null;
            String password = null;
            // Split before decoding, so that a percent-encoded colon belongs to the name or password.
            String info = uri.getRawUserInfo();
            if (info != null) {
                int colon = info.indexOf(':');
                user = percentDecoded(colon < 0 ? info : info.substring(0, colon));
                password = colon < 0 ? null : percentDecoded(info.substring(colon + 1));
            }
            user = user == null || user.isEmpty() ? null : user;
            password = password == null || password.isEmpty() ? null : password;
            String file = value(ConfigProperty.STORE_PASSWORD_FILE);
            if (file != null) {
                if (password != null) {
                    problems.add("both " + ConfigProperty.STORE.key() + " and "
                            + ConfigProperty.STORE_PASSWORD_FILE.key() + " give a password: keep one of them");
                } else {
                    password = secretFile(ConfigProperty.STORE_PASSWORD_FILE, file, "the password");
                }
            }
            if (user != null && password == null && file == null) {
                problems.add(
                        where(ConfigProperty.STORE) + " names a user but no password: add it as user:password@, or set "
                                + ConfigProperty.STORE_PASSWORD_FILE.key());
            }
            return new String[] {user, password};
        }

        /** RFC 3986 percent-decoding as UTF-8 ({@code +} stays a plus, unlike form decoding). */
        private static String percentDecoded(String raw) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
            int i = 0;
            while (i < raw.length()) {
                int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = hi >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (raw.charAt(i) == '%' && lo >= 0) {
                    out.write(hi * 16 + lo);
                    i += 3;
                } else {
                    int cp = raw.codePointAt(i);
                    out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                    i += Character.charCount(cp);
                }
            }
            return new String(out.toByteArray(), StandardCharsets.UTF_8);
        }

        private Duration timeout() {
            ConfigProperty p = ConfigProperty.STORE_TIMEOUT;
            String value = value(p);
            if (value == null) {
                return DEFAULT_TIMEOUT;
            }
            try {
                Duration d = Durations.parse(value);
                if (d.isZero() || d.compareTo(MAX_TIMEOUT) > 0) {
                    problems.add(where(p) + " is " + value + ": give a duration above zero and at most "
                            + Durations.format(MAX_TIMEOUT) + ", such as " + p.defaultValue());
                    return DEFAULT_TIMEOUT;
                }
                return d;
            } catch (IllegalArgumentException e) {
                problems.add(where(p) + ": " + e.getMessage());
                return DEFAULT_TIMEOUT;
            }
        }

        private String keyPrefix() {
            ConfigProperty p = ConfigProperty.STORE_KEY;
            String value = value(p);
            if (value == null) {
                return null;
            }
            if (value.length() > MAX_KEY_PREFIX_LENGTH || !value.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
                problems.add(where(p) + " must be at most " + MAX_KEY_PREFIX_LENGTH
                        + " visible ASCII characters without spaces, such as myapp:prod");
                return null;
            }
            return value;
        }

        private byte[] encryptionKey() {
            ConfigProperty p = ConfigProperty.STORE_ENCRYPTION_KEY_FILE;
            String file = value(p);
            if (file == null) {
                return null;
            }
            String text = secretFile(p, file, "the key");
            if (text == null) {
                return null;
            }
            byte[] key;
            try {
                key = Base64.getDecoder().decode(text);
            } catch (IllegalArgumentException e) {
                problems.add(where(p) + " = " + file + " does not hold base64: write a 32-byte key in base64 into it "
                        + "(openssl rand -base64 32 > " + file + ")");
                return null;
            }
            if (key.length != KEY_BYTES) {
                problems.add(where(p) + " = " + file + " holds a " + key.length + "-byte key: AES-256 takes "
                        + KEY_BYTES + " bytes, in base64 (openssl rand -base64 32)");
                Arrays.fill(key, (byte) 0);
                return null;
            }
            return key;
        }

        /** The file's trimmed content, or null after adding the problem. */
        private String secretFile(ConfigProperty p, String file, String what) {
            String text;
            try {
                text = SecretFile.read(Paths.get(file));
            } catch (SecretFile.Unusable e) {
                problems.add(where(p) + " = " + file + " " + e.getMessage().replace("the token", what));
                return null;
            } catch (IOException | RuntimeException e) {
                problems.add("cannot read " + where(p) + " = " + file + " ("
                        + e.getClass().getSimpleName()
                        + "): check that the file exists and that this process may read it");
                return null;
            }
            if (text.isEmpty()) {
                problems.add(where(p) + " = " + file + " is empty: put " + what + " in it, or unset the property");
                return null;
            }
            return text;
        }

        private String value(ConfigProperty p) {
            String v = raw.apply(p.key());
            return v == null || v.trim().isEmpty() ? null : v.trim();
        }

        private static String where(ConfigProperty p) {
            return p.key() + " (or " + p.envName() + ")";
        }

        private static boolean isLoopback(String host) {
            String h = host.toLowerCase(Locale.ROOT);
            return h.equals("localhost") || h.startsWith("127.") || h.equals("::1");
        }
    }
}
