package io.apiwarden.core.config;

import java.util.function.Function;

/**
 * {@link System#getProperty(String)} as the function the configuration reads from: a class, not {@code
 * System::getProperty}, since each method reference the start runs costs a class spun at run time
 * (docs/benchmarks.md).
 */
public final class SystemProperties implements Function<String, String> {
    public static final Function<String, String> GET = new SystemProperties();

    private SystemProperties() {}

    @Override
    public String apply(String key) {
        return System.getProperty(key);
    }
}
