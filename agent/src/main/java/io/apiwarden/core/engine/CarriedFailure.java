package io.apiwarden.core.engine;

import java.io.IOException;

/**
 * A failure of the client's own kind that is not an {@link IOException} (Apache HttpClient's
 * {@code HttpException} from the rest of its chain), carried through the driver, which passes on only
 * I/O failures, so that the adapter throws it again as it was: to the driver it is an attempt that failed.
 */
public final class CarriedFailure extends IOException {
    private static final long serialVersionUID = 1L;
    private final transient Exception carried;

    public CarriedFailure(Exception carried) {
        super(carried.getMessage(), carried);
        this.carried = carried;
    }

    /** The failure carried, which the adapter knows to be of {@code type}: only it carries failures. */
    public <E extends Exception> E carried(Class<E> type) {
        return type.cast(carried);
    }
}
