package io.apiwarden.core.config;

import static io.apiwarden.core.config.RedisStoreSettings.DEFAULT_PORT;
import static io.apiwarden.core.config.RedisStoreSettings.DEFAULT_TIMEOUT;
import static io.apiwarden.core.config.RedisStoreSettings.MAX_KEY_PREFIX_LENGTH;
import static io.apiwarden.core.config.RedisStoreSettings.MAX_TIMEOUT;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Reads the Redis store's settings ({@code apiwarden.store*}) with the shared parsers of {@link SectionReader}:
 * an API's store, a named API's included. Plain Java: reading the settings loads no Redis client class.
 */
final class RedisStoreReader {

    private final SectionReader r;
    private final Problems problems;

    private RedisStoreReader(SectionReader r) {
        this.r = r;
        this.problems = r.problems();
    }

    /**
     * The store's settings, or null when {@code apiwarden.store} is unset or something is wrong with them (said in
     * the reader's {@link Problems}).
     */
    static RedisStoreSettings read(SectionReader r) {
        return new RedisStoreReader(r).read();
    }

    private RedisStoreSettings read() {
        int before = problems.count();
        String url = r.raw(ConfigProperty.STORE);
        if (url == null) {
            return null;
        }
        URI uri = storeUri(url);
        Duration timeout = timeout();
        String keyPrefix = keyPrefix();
        byte[] encryptionKey = encryptionKey();
        if (uri == null) {
            return null;
        }
        boolean tls = uri.getScheme().equalsIgnoreCase("rediss");
        int port = uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort();
        int database = database(uri);
        String[] credentials = credentials(uri);
        String host = uri.getHost().startsWith("[")
                ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        if (!tls && !SectionReader.isLoopback(host)) {
            problems.warn(r.where(ConfigProperty.STORE) + " is plain redis:// to " + host
                    + ": the password and the token state cross the network unencrypted; use rediss://");
        }
        if (encryptionKey == null) {
            problems.warn(
                    "the token state is kept in Redis unencrypted: whoever can read that Redis can use both tokens; set "
                            + ConfigProperty.STORE_ENCRYPTION_KEY_FILE.key());
        }
        String passwordFile = r.raw(ConfigProperty.STORE_PASSWORD_FILE);
        RedisStoreSettings settings = new RedisStoreSettings(
                tls, host, port, database, credentials[0], credentials[1], keyPrefix, timeout, encryptionKey);
        if (passwordFile != null && credentials[1] != null) {
            settings = settings.followingPasswordFile(
                    r.key(ConfigProperty.STORE_PASSWORD_FILE),
                    Paths.get(passwordFile),
                    ClientKeySettings.checkInterval(r));
        }
        if (encryptionKey != null) {
            Arrays.fill(encryptionKey, (byte) 0);
            settings = settings.followingEncryptionKeyFile(
                    r.key(ConfigProperty.STORE_ENCRYPTION_KEY_FILE),
                    Paths.get(r.raw(ConfigProperty.STORE_ENCRYPTION_KEY_FILE)),
                    ClientKeySettings.checkInterval(r));
        }
        return problems.count() == before ? settings : null;
    }

    private URI storeUri(String value) {
        ConfigProperty p = ConfigProperty.STORE;
        String shape = ": write it as redis://[user[:password]@]host[:port][/db] or rediss://... for TLS";
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            // The reason only: the value itself may hold the password.
            problems.add(r.where(p) + " is not a valid URL (" + e.getReason() + ")" + shape
                    + "; percent-encode special characters of the password, or put it in "
                    + ConfigProperty.STORE_PASSWORD_FILE.key());
            return null;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("redis") && !scheme.equals("rediss")) {
            problems.add(r.where(p) + " is not a Redis URL" + shape);
            return null;
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            problems.add(r.where(p) + " has a query or fragment" + shape
                    + " (a # or ? in the password must be percent-encoded, or put the password in "
                    + ConfigProperty.STORE_PASSWORD_FILE.key() + ")");
            return null;
        }
        String port = Ports.text(uri.getRawAuthority());
        if (port != null && !Ports.isPort(port)) {
            // Caught here, at start-up: Jedis would fail only at the first connect, as a lost connection. The port
            // is quoted only when it is digits: a URL missing its @ could have the password where the port goes.
            problems.add(r.where(p)
                    + (port.matches("[0-9]{1,20}") ? " has port " + port : " has a port that is not a number")
                    + ", which no server can listen on (ports go from 1 to " + Ports.MAX + "; none means Redis's "
                    + DEFAULT_PORT + ")" + shape);
            return null;
        }
        if (uri.getHost() == null) {
            problems.add(r.where(p)
                    + " has no host name this JVM can use (letters, digits, dots and dashes; [::1] for IPv6)"
                    + shape);
            return null;
        }
        String path = uri.getPath();
        if (path != null && !path.isEmpty() && !path.equals("/") && !path.matches("/\\d{1,9}")) {
            problems.add(r.where(p) + " has a path that is not a database number" + shape);
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
        String file = r.raw(ConfigProperty.STORE_PASSWORD_FILE);
        if (file != null) {
            if (password != null) {
                problems.add("both " + ConfigProperty.STORE.key() + " and " + ConfigProperty.STORE_PASSWORD_FILE.key()
                        + " give a password: keep one of them");
            } else {
                password = r.secretFile(ConfigProperty.STORE_PASSWORD_FILE, file, "the password");
            }
        }
        if (user != null && password == null && file == null) {
            problems.add(
                    r.where(ConfigProperty.STORE) + " names a user but no password: add it as user:password@, or set "
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
        return r.duration(ConfigProperty.STORE_TIMEOUT, MAX_TIMEOUT, DEFAULT_TIMEOUT);
    }

    private String keyPrefix() {
        ConfigProperty p = ConfigProperty.STORE_KEY;
        String value = r.raw(p);
        if (value == null) {
            return null;
        }
        if (value.length() > MAX_KEY_PREFIX_LENGTH || !value.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
            problems.add(r.where(p) + " must be at most " + MAX_KEY_PREFIX_LENGTH
                    + " visible ASCII characters without spaces, such as myapp:prod");
            return null;
        }
        return value;
    }

    private byte[] encryptionKey() {
        ConfigProperty p = ConfigProperty.STORE_ENCRYPTION_KEY_FILE;
        String file = r.raw(p);
        if (file == null) {
            return null;
        }
        String text = r.secretFile(p, file, "the key");
        if (text == null) {
            return null;
        }
        try {
            return RedisStoreSettings.encryptionKey(text.getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            problems.add(r.where(p) + " = " + file + " " + e.getMessage());
            return null;
        }
    }
}
