package io.apiwarden.core.config;

import java.util.List;

/** The configuration is unusable; the message names every offending property and what to do. */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    // The declared type is the interface; the list itself (List.copyOf's) is serializable.
    @SuppressWarnings("serial")
    private final List<String> problems;

    ConfigException(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
