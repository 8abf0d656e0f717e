package io.apiwarden.core.config;

import io.apiwarden.core.secret.SecretFile;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The typed parsers every section reads its properties with (durations, sizes, URLs, ratios, bounded integers,
 * switches, secrets and their files), for one API: a named API's property is {@code apiwarden.api.<name>.<key>},
 * and a tuning property it does not set is the unnamed one ({@link ConfigProperty#identity}: never an identity
 * property). Every problem goes to the shared {@link Problems}, naming the property as it was set.
 */
final class SectionReader {
    /** No wait or time-out the agent keeps is longer than a day; longer values are typing mistakes. */
    static final Duration MAX_DURATION = Duration.ofHours(24);

    private final PropertySource source;
    private final Problems problems;
    /** The named API whose properties are read, or null for the unnamed ones (the API {@code default}). */
    private final String api;
    /** Secrets that were set but unusable: their absence is already reported. */
    private final Set<ConfigProperty> unusableSecrets = EnumSet.noneOf(ConfigProperty.class);

    SectionReader(PropertySource source, Problems problems, String api) {
        this.source = source;
        this.problems = problems;
        this.api = api;
    }

    Problems problems() {
        return problems;
    }

    /** The value as set for this API, trimmed, or null when it is unset or blank. */
    String raw(ConfigProperty p) {
        if (api == null || !p.perApi()) {
            return source.value(p.key(), p.envName());
        }
        String own = source.value(p.keyOf(api), p.envNameOf(api));
        return own != null || p.identity() ? own : source.value(p.key(), p.envName());
    }

    /** The value of any key, as a system property, environment variable or in the file. */
    String raw(String key, String envName) {
        return source.value(key, envName);
    }

    String valueOrDefault(ConfigProperty p) {
        String value = raw(p);
        return value == null ? p.defaultValue() : value;
    }

    /** The property and its variable as this API's value came from them, for a message. */
    String where(ConfigProperty p) {
        boolean own =
                api != null && p.perApi() && (p.identity() || source.value(p.keyOf(api), p.envNameOf(api)) != null);
        return own ? p.keyOf(api) + " (or " + p.envNameOf(api) + ")" : p.key() + " (or " + p.envName() + ")";
    }

    /** The key as this API's property, for a message that names a property not set. */
    String key(ConfigProperty p) {
        return api != null && p.perApi() ? p.keyOf(api) : p.key();
    }

    boolean bool(ConfigProperty p) {
        return bool(valueOrDefault(p), where(p), p.defaultValue());
    }

    boolean bool(String value, String where, String defaultValue) {
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        problems.add(where + " is '" + value + "': set it to true or false");
        return Boolean.parseBoolean(defaultValue);
    }

    double ratio(ConfigProperty p) {
        String value = valueOrDefault(p);
        try {
            double d = Double.parseDouble(value);
            if (d >= 0 && d <= 1) {
                return d;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        problems.add(where(p) + " is '" + value + "': set it to a number from 0 to 1, e.g. 0.2");
        return Double.parseDouble(p.defaultValue());
    }

    /** A whole number from {@code min} to {@code max}; {@code phrase} says it as the message should. */
    int integer(ConfigProperty p, int min, int max, String phrase) {
        String value = valueOrDefault(p);
        try {
            int i = Integer.parseInt(value);
            if (i >= min && i <= max) {
                return i;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        problems.add(where(p) + " is '" + value + "': " + phrase + " from " + min + " to " + max);
        return Integer.parseInt(p.defaultValue());
    }

    /** A duration above zero and at most {@link #MAX_DURATION}. */
    Duration positiveDuration(ConfigProperty p) {
        String value = valueOrDefault(p);
        try {
            Duration d = Durations.parse(value);
            if (d.isZero() || d.compareTo(MAX_DURATION) > 0) {
                problems.add(where(p) + " is " + value + ": give a duration above zero and at most 24h, such as "
                        + p.defaultValue());
                return Durations.parse(p.defaultValue());
            }
            return d;
        } catch (IllegalArgumentException e) {
            problems.add(where(p) + ": " + e.getMessage());
            return Durations.parse(p.defaultValue());
        }
    }

    /** A duration above zero and at most {@code max}, or {@code fallback} when unset or wrong. */
    Duration duration(ConfigProperty p, Duration max, Duration fallback) {
        String value = raw(p);
        if (value == null) {
            return fallback;
        }
        try {
            Duration d = Durations.parse(value);
            if (d.isZero() || d.compareTo(max) > 0) {
                problems.add(where(p) + " is " + value + ": give a duration above zero and at most "
                        + Durations.format(max) + ", such as " + p.defaultValue());
                return fallback;
            }
            return d;
        } catch (IllegalArgumentException e) {
            problems.add(where(p) + ": " + e.getMessage());
            return fallback;
        }
    }

    /** A size up to {@code max}; {@code why} says what a larger one would cost. */
    long size(ConfigProperty p, long max, String why) {
        String value = valueOrDefault(p);
        try {
            long size = Sizes.parse(value);
            if (size <= max) {
                return size;
            }
            problems.add(where(p) + " is " + value + ": give at most " + Sizes.format(max) + " " + why);
        } catch (IllegalArgumentException e) {
            problems.add(where(p) + ": " + e.getMessage());
        }
        return Sizes.parse(p.defaultValue());
    }

    Integer port(ConfigProperty p) {
        String value = raw(p);
        if (value == null) {
            return null;
        }
        try {
            int n = Integer.parseInt(value);
            if (n >= 0 && n <= 65535) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(where(p) + " is '" + value + "': give a port from 1 to 65535 (0 picks a free one)");
        return null;
    }

    /** A comma-separated list of HTTP header names (RFC 9110 tokens). */
    List<String> headerNames(ConfigProperty p, String value) {
        List<String> names = new ArrayList<>();
        for (String part : value.split(",")) {
            String name = part.trim();
            if (name.isEmpty()) {
                continue;
            }
            if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                problems.add(where(p) + " has '" + name + "', which is not a header name");
                continue;
            }
            names.add(name);
        }
        return List.copyOf(names);
    }

    /** An http or https URL with a host, without user information; null after reporting a problem. */
    URI httpUrl(ConfigProperty p, String value) {
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            problems.add(
                    where(p) + " is not a valid URL (" + e.getReason() + "): write it like https://host[:port]/path");
            return null;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            problems.add(where(p) + " must be an http or https URL, like https://host[:port]/path");
            return null;
        }
        String port = Ports.text(uri.getRawAuthority());
        if (port != null && !Ports.isPort(port)) {
            problems.add(where(p) + " has port " + port + ": give a port from 1 to " + Ports.MAX
                    + ", or none for the scheme's default");
            return null;
        }
        if (uri.getHost() == null) {
            problems.add(where(p) + " has no host: write it like https://host[:port]/path");
            return null;
        }
        if (uri.getRawUserInfo() != null) {
            problems.add(
                    where(p) + " contains user information: credentials never go into a URL, use the token properties");
            return null;
        }
        return uri;
    }

    /**
     * A secret from its property or from its file; never both. {@code unfit} says why a value cannot be used, or
     * returns null.
     */
    String secret(
            ConfigProperty valueProperty,
            ConfigProperty fileProperty,
            java.util.function.Function<String, String> unfit) {
        String value = readSecret(valueProperty, fileProperty, unfit);
        if (value == null && (raw(valueProperty) != null || raw(fileProperty) != null)) {
            unusableSecrets.add(valueProperty);
        }
        return value;
    }

    /** Whether the secret was set but could not be used (its problem is already reported). */
    boolean unusable(ConfigProperty valueProperty) {
        return unusableSecrets.contains(valueProperty);
    }

    private String readSecret(
            ConfigProperty valueProperty,
            ConfigProperty fileProperty,
            java.util.function.Function<String, String> unfit) {
        String value = raw(valueProperty);
        String file = raw(fileProperty);
        if (value != null && file != null) {
            problems.add("both " + key(valueProperty) + " and " + key(fileProperty) + " are set: keep one of them");
            return null;
        }
        String source = key(valueProperty);
        if (file != null) {
            source = key(fileProperty) + " (" + file + ")";
            value = secretFile(fileProperty, file, "the token");
            if (value == null) {
                return null;
            }
        }
        String flaw = value == null ? null : unfit.apply(value);
        if (flaw != null) {
            problems.add(source + " " + flaw);
            return null;
        }
        return value;
    }

    /** The trimmed content of the secret file {@code p} names, or null after reporting the problem. */
    String secretFile(ConfigProperty p, String file, String what) {
        String text;
        try {
            text = SecretFile.read(Paths.get(file));
        } catch (SecretFile.Unusable e) {
            problems.add(where(p) + " = " + file + " " + e.getMessage().replace("the token", what));
            return null;
        } catch (IOException | RuntimeException e) {
            problems.add("cannot read " + where(p) + " = " + file + " ("
                    + e.getClass().getSimpleName() + "): check that the file exists and that this process may read it");
            return null;
        }
        if (text.isEmpty()) {
            problems.add(where(p) + " = " + file + " is empty: put " + what + " in it, or unset the property");
            return null;
        }
        return text;
    }

    static boolean isLoopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.startsWith("127.") || h.equals("[::1]") || h.equals("::1");
    }
}
