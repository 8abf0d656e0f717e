package io.apiwarden.core.config;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What reading the configuration found wrong (each naming the property and what to do) and what deserves a look,
 * collected from every section so that start-up reports them all in one line rather than one at a time. A
 * problem two APIs share (an unnamed tuning property both take) is said once.
 */
public final class Problems {
    private final Set<String> problems = new LinkedHashSet<>();
    private final Set<String> warnings = new LinkedHashSet<>();

    /** Something that stops the agent: the message names the property and the fix. */
    public void add(String problem) {
        problems.add(problem);
    }

    /** Something that works but deserves a look (cleartext HTTP to another host, a readable secret). */
    public void warn(String warning) {
        warnings.add(warning);
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    /** The problems so far, in the order they were found. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** How many problems there are so far: a section compares it to tell whether it found one. */
    int count() {
        return problems.size();
    }

    /**
     * @throws ConfigException naming every problem, when there is one
     */
    public void throwIfAny() throws ConfigException {
        if (!problems.isEmpty()) {
            throw new ConfigException(List.copyOf(problems));
        }
    }
}
