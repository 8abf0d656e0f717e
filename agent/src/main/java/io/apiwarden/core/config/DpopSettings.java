package io.apiwarden.core.config;

import io.apiwarden.core.dpop.DpopKey;
import io.apiwarden.core.secret.SecretFile;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * An API's DPoP settings ({@code apiwarden.dpop.*}): off, or the key its proofs are signed with. The key is read (or
 * made) here, so that a bad one is a configuration error at start; its classes load only when DPoP is on.
 */
final class DpopSettings {
    private DpopSettings() {}

    /**
     * The API's DPoP key, or null when DPoP is off or its key cannot be used (the problem is reported).
     *
     * @param sharesTokens whether the API's tokens are shared with other JVMs (a Redis store, a refresh-token file):
     *     they are bound to the key, so every JVM must hold the same one, from a file
     */
    static DpopKey read(SectionReader r, boolean sharesTokens) {
        if (!r.bool(ConfigProperty.DPOP_ENABLED)) {
            return null;
        }
        String file = r.raw(ConfigProperty.DPOP_KEY_FILE);
        String algorithm = r.raw(ConfigProperty.DPOP_ALGORITHM);
        if (file == null && sharesTokens) {
            r.problems()
                    .add(r.where(ConfigProperty.DPOP_ENABLED) + " is true and the tokens are shared with other JVMs (a"
                            + " token store), but no key file is set: the tokens are bound to the DPoP key, so every"
                            + " JVM must hold the same one. Set " + r.key(ConfigProperty.DPOP_KEY_FILE)
                            + " to a PKCS#8 PEM key (openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256)");
            return null;
        }
        return KeyReading.read(r, file, algorithm);
    }

    /**
     * The key read or made, apart from {@link #read}: a class verified when loaded loads the exceptions it catches,
     * and the configuration of every API passes through {@code read}, DPoP on or not.
     */
    private static final class KeyReading {
        private KeyReading() {}

        static DpopKey read(SectionReader r, String file, String algorithm) {
            try {
                if (file == null) {
                    return DpopKey.generate(algorithm);
                }
                Path path = Paths.get(file);
                String exposure = SecretFile.exposure(path);
                if (exposure != null) {
                    r.problems()
                            .warn(r.key(ConfigProperty.DPOP_KEY_FILE) + " " + exposure
                                    + ": whoever can read the DPoP key can use the tokens bound to it");
                }
                return DpopKey.read(path, algorithm);
            } catch (DpopKey.Unusable e) {
                String where = file == null
                        ? "the DPoP key generated for " + r.where(ConfigProperty.DPOP_ALGORITHM)
                        : r.where(ConfigProperty.DPOP_KEY_FILE) + " = " + file;
                r.problems().add(where + " " + e.getMessage());
                return null;
            } catch (RuntimeException e) {
                r.problems()
                        .add("the DPoP key could not be set up (" + e.getClass().getSimpleName() + "): check "
                                + r.key(ConfigProperty.DPOP_KEY_FILE) + " and " + r.key(ConfigProperty.DPOP_ALGORITHM));
                return null;
            }
        }
    }
}
