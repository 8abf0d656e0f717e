package io.apiwarden.agent;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One HTTP client the agent manages: what the agent needs to know of it to switch it on or off, name it,
 * and put its hooks in. Each lives in its client's folder ({@code io.apiwarden.clients.<client>.agent})
 * and is listed once in {@link ClientModules}.
 */
public interface ClientModule {
    /**
     * The client's name in {@code apiwarden.instrumentation.<name>.enabled}: lower case, words joined by
     * hyphens. Never renamed, as users' configurations carry it.
     */
    String name();

    /** The client as users know it, for the log, the help and the unmanaged-client warning. */
    String displayName();

    /**
     * How an app gets a client the agent manages, for the warning about a call through one it does not
     * manage; the display name when every client of the library is managed.
     */
    default String managedForm() {
        return displayName();
    }

    /**
     * Classes (internal names, with slashes) the unmanaged-client watch would otherwise watch and that
     * this module manages while it is switched on: the watch leaves them alone then.
     */
    default Set<String> managedClassesTheWatchKnows() {
        return Set.of();
    }

    /**
     * Whether a socket connection opened with {@code type} on its stack, or by a thread of that class, is one of
     * this client's (its classes' packages). The last-resort watch of connections to the API's host and port leaves
     * those to this module while it is on, and names this client when it is off. Asked only for connections to the
     * API's host and port, innermost frame first, until a frame answers.
     */
    default boolean opensConnectionsIn(Class<?> type) {
        return false;
    }

    /**
     * Whether this client connects from tasks on plain Netty event loops, whose stack shows only Netty and whose
     * thread is Netty's: nothing there tells its connections from another Netty client's. While such a module is
     * on, the last-resort watch leaves Netty-only connects alone rather than name a managed client as unmanaged.
     */
    default boolean connectsFromPlainNettyLoops() {
        return false;
    }

    /**
     * The classes this client's weaving changes (internal names, with slashes). Names only: {@code premain} registers
     * them with the agent's one transformer, and none of the weaving's own classes (its visitors, its hooks, ASM) loads
     * before the first of these classes does, so a client the app never uses costs start-up nothing but its names.
     */
    Set<String> wovenClasses();

    /**
     * Each of {@link #wovenClasses()} to its weaving. Asked once, when the first of those classes is defined (or found
     * loaded already at a late attach), never in {@code premain}.
     */
    Map<String, HookTransformer.Weaving> weavings();

    /**
     * Loads and links, without initializing, the agent's classes this client's first managed call needs, so that the
     * app's thread does not load them as it builds its first client and makes its first call. Run once, on a daemon
     * thread ({@code apiwarden-warm-up-<name>}), after the first of {@link #wovenClasses()} was woven, with the loader
     * that defined it; the app is then usually busy loading the rest of the client's classes. A class it misses loads
     * when first used, as without it. By default {@link #firstCallClasses()}, in the agent's own loader; a module whose
     * glue is defined beside the library ({@code Glues}) loads them there instead.
     */
    default void warmUp(ClassLoader libraryLoader) {
        FirstCallClasses.loadAndLink(ClientModule.class.getClassLoader(), firstCallClasses());
    }

    /**
     * The classes {@link #warmUp} loads (binary names): taken from a class-loading log of a first call through the
     * client ({@code -Xlog:class+load}); {@code ClientModulesTest} fails on a name the jar does not have.
     */
    default List<String> firstCallClasses() {
        return List.of();
    }
}
