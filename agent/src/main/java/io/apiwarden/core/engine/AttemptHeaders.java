package io.apiwarden.core.engine;

import java.util.function.BiConsumer;

/**
 * The headers the agent sets on one attempt: its token, the trace context and the request ID.
 * A few pairs in one array, reused from one attempt of a call to the next.
 */
public final class AttemptHeaders implements BiConsumer<String, String> {
    /** Room for two: the token and the request ID; the trace context, when on, makes it grow once. */
    private String[] pairs = new String[4];

    private int size;

    /** Sets {@code name} to {@code value}, replacing a value set before under the same name. */
    @Override
    public void accept(String name, String value) {
        for (int i = 0; i < size; i += 2) {
            if (pairs[i].equalsIgnoreCase(name)) {
                pairs[i + 1] = value;
                return;
            }
        }
        if (size == pairs.length) {
            pairs = java.util.Arrays.copyOf(pairs, size * 2);
        }
        pairs[size++] = name;
        pairs[size++] = value;
    }

    /** Hands every header to {@code setter}, in the order they were set. */
    public void forEach(BiConsumer<String, String> setter) {
        for (int i = 0; i < size; i += 2) {
            setter.accept(pairs[i], pairs[i + 1]);
        }
    }

    /** The value set under {@code name}, or null. */
    public String get(String name) {
        for (int i = 0; i < size; i += 2) {
            if (pairs[i].equalsIgnoreCase(name)) {
                return pairs[i + 1];
            }
        }
        return null;
    }

    /** Name, value, name, value: a copy, for an adapter that keeps the headers past this attempt. */
    public String[] toPairs() {
        return java.util.Arrays.copyOf(pairs, size);
    }

    /** Whether these are exactly {@code other}'s pairs ({@link #toPairs}): same names, values and order. */
    public boolean matches(String[] other) {
        if (other.length != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (!pairs[i].equals(other[i])) {
                return false;
            }
        }
        return true;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    void clear() {
        java.util.Arrays.fill(pairs, 0, size, null);
        size = 0;
    }

    /** Names only: the values include a token. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("AttemptHeaders[");
        for (int i = 0; i < size; i += 2) {
            b.append(i == 0 ? "" : ", ").append(pairs[i]);
        }
        return b.append(']').toString();
    }
}
