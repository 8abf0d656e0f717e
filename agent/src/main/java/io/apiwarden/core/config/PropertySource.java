package io.apiwarden.core.config;

import io.apiwarden.core.secret.SecretFile;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The one place property values come from: a system property, else its environment variable, else the
 * configuration file ({@code apiwarden.config-file}), which holds the same keys as the system properties. Values
 * are trimmed; a blank one counts as unset.
 *
 * <p>The file is read as other files the agent reads are ({@link SecretFile#readSettings}): a regular file, at
 * most {@link #MAX_FILE_BYTES}, never a pipe or device. A secret written in it directly gets a warning when the
 * file is readable by others than its owner.
 */
public final class PropertySource {
    /** A properties file of every key for a dozen APIs is a few KiB; anything near this is the wrong file. */
    static final int MAX_FILE_BYTES = 256 * 1024;

    /**
     * An API's name: lower-case letters, digits and dashes, as it goes into keys, tags and spans. Checked without a
     * regex: {@code premain} reads this class.
     */
    static boolean isApiName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private final Function<String, String> system;
    private final Collection<String> systemKeys;
    private final Map<String, String> environment;
    private final Map<String, String> file;

    private PropertySource(
            Function<String, String> system,
            Collection<String> systemKeys,
            Map<String, String> environment,
            Map<String, String> file) {
        this.system = system;
        this.systemKeys = systemKeys;
        this.environment = environment;
        this.file = file;
    }

    /**
     * The values of this JVM, the configuration file's included; problems with the file go to {@code problems}.
     *
     * @param systemKeys the names of the system properties, to find the named APIs among them
     */
    static PropertySource of(
            Function<String, String> system,
            Collection<String> systemKeys,
            Map<String, String> environment,
            Problems problems) {
        PropertySource withoutFile = new PropertySource(system, systemKeys, environment, Map.of());
        String path = withoutFile.value(ConfigProperty.CONFIG_FILE.key(), ConfigProperty.CONFIG_FILE.envName());
        if (path == null) {
            return withoutFile;
        }
        return new PropertySource(system, systemKeys, environment, readFile(path, problems));
    }

    /** The value of {@code key}, or of {@code envName}, or from the file; trimmed, null when unset or blank. */
    String value(String key, String envName) {
        String value = system.apply(key);
        if (value == null) {
            value = environment.get(envName);
        }
        if (value == null) {
            value = file.get(key);
        }
        return value == null || value.trim().isEmpty() ? null : value.trim();
    }

    /**
     * The names of the APIs given as {@code apiwarden.api.<name>.*} (or {@code APIWARDEN_API_<NAME>_*}), sorted; a
     * key with a name that is not {@code [a-z0-9-]+} or a property no API has goes to {@code problems}.
     */
    Set<String> apiNames(Problems problems) {
        Set<String> names = new TreeSet<>();
        Set<String> keys = new TreeSet<>(file.keySet());
        for (String key : systemKeys) {
            keys.add(key);
        }
        for (String key : keys) {
            if (key.startsWith(ConfigProperty.API_PREFIX)) {
                String rest = key.substring(ConfigProperty.API_PREFIX.length());
                int dot = rest.indexOf('.');
                String name = dot < 0 ? rest : rest.substring(0, dot);
                ConfigProperty p = dot < 0 ? null : perApi(rest.substring(dot + 1));
                addName(names, name, p, key, problems);
            }
        }
        for (String variable : environment.keySet()) {
            if (variable.startsWith(ConfigProperty.API_ENV_PREFIX)) {
                String rest = variable.substring(ConfigProperty.API_ENV_PREFIX.length());
                ConfigProperty p = perApiByEnvSuffix(rest);
                String name = p == null
                        ? rest
                        : rest.substring(0, rest.length() - envSuffix(p).length() - 1)
                                .toLowerCase(java.util.Locale.ROOT)
                                .replace('_', '-');
                addName(names, name, p, variable, problems);
            }
        }
        return names;
    }

    private static void addName(Set<String> names, String name, ConfigProperty p, String key, Problems problems) {
        if (p == null) {
            problems.add(key + " is not a property of an API: write " + ConfigProperty.API_PREFIX
                    + "<name>.<property> with a property such as base-url, token-url or client-id");
        } else if (!isApiName(name)) {
            problems.add(key + " names the API '" + name
                    + "': an API's name is lower-case letters, digits and dashes, such as payments or crm-eu");
        } else if (name.equals(WardenConfig.DEFAULT_API)) {
            problems.add(key + " names the API '" + WardenConfig.DEFAULT_API
                    + "', which the unnamed properties define: set " + p.key() + " instead");
        } else {
            names.add(name);
        }
    }

    private static ConfigProperty perApi(String suffix) {
        for (ConfigProperty p : ConfigProperty.values()) {
            if (p.perApi() && p.suffix().equals(suffix)) {
                return p;
            }
        }
        return null;
    }

    /** The per-API property whose variable ends {@code rest} (the longest, as names may hold underscores). */
    private static ConfigProperty perApiByEnvSuffix(String rest) {
        ConfigProperty found = null;
        for (ConfigProperty p : ConfigProperty.values()) {
            String suffix = "_" + envSuffix(p);
            if (p.perApi()
                    && rest.endsWith(suffix)
                    && rest.length() > suffix.length()
                    && (found == null || suffix.length() > envSuffix(found).length() + 1)) {
                found = p;
            }
        }
        return found;
    }

    private static String envSuffix(ConfigProperty p) {
        return p.envName().substring("APIWARDEN_".length());
    }

    private static Map<String, String> readFile(String path, Problems problems) {
        String where =
                ConfigProperty.CONFIG_FILE.key() + " (or " + ConfigProperty.CONFIG_FILE.envName() + ") = " + path;
        Path file = Paths.get(path);
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(SecretFile.readSettings(file, MAX_FILE_BYTES)));
        } catch (SecretFile.Unusable e) {
            problems.add(where + " " + e.getMessage());
            return Map.of();
        } catch (IOException | RuntimeException e) {
            problems.add("cannot read " + where + " (" + e.getClass().getSimpleName()
                    + "): check that the file exists and that this process may read it");
            return Map.of();
        }
        Map<String, String> values = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (!key.startsWith("apiwarden.")) {
                problems.add(where + " holds " + key
                        + ", which is no property of the agent: keep only apiwarden.* keys in it");
            } else {
                values.put(key, properties.getProperty(key));
            }
        }
        warnAboutSecrets(file, values.keySet(), where, problems);
        return values;
    }

    /** A secret written in the file is as exposed as the file: say so when others may read it. */
    private static void warnAboutSecrets(Path file, Set<String> keys, String where, Problems problems) {
        for (String key : keys) {
            ConfigProperty p = ConfigProperty.fromKey(key);
            if (p != null && p.secret()) {
                String exposure = SecretFile.exposure(file);
                if (exposure != null) {
                    problems.warn(where + " holds " + key + ", a secret, and " + exposure
                            + ": whoever can read the file can use it; or put it in its -file property");
                }
                return;
            }
        }
    }
}
