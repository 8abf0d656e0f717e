package io.apiwarden.clients.huc.agent;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.agent.ReturnThroughHook;
import io.apiwarden.core.log.AgentLog;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;

/**
 * Makes the JDK's http and https URL handlers ({@code sun.net.www.protocol.http.Handler} and its https
 * subclass) hand every connection their {@code openConnection(URL, Proxy)} makes to {@link HucHook#open}:
 * {@code url.openConnection()} and {@code url.openConnection(proxy)} both end there, once per connection.
 *
 * <p>Each {@code return connection;} becomes, in effect:
 * <pre>{@code
 * try {
 *     connection = (URLConnection) Class.forName("io.apiwarden.clients.huc.agent.HucHook", true, systemLoader)
 *             .getMethod("open", URLConnection.class, URL.class, Proxy.class).invoke(null, connection, url, proxy);
 * } catch (Throwable t) {
 *     // the app gets the JDK's connection
 * }
 * return connection;
 * }</pre>
 * Reflection, because the handlers are in {@code java.base}, which cannot link to the agent's classes on the
 * class path; it costs about a microsecond per connection opened, beside the connection's own set-up.
 * No member is added, so handlers loaded before the agent are woven by retransforming them.
 */
final class HucInstrumentation {
    static final String HTTP_HANDLER = "sun/net/www/protocol/http/Handler";
    static final String HTTPS_HANDLER = "sun/net/www/protocol/https/Handler";
    private static final String OPEN = "openConnection";
    private static final String OPEN_DESCRIPTOR = "(Ljava/net/URL;Ljava/net/Proxy;)Ljava/net/URLConnection;";
    private static final String URL_CONNECTION = "java/net/URLConnection";
    /** The slot after {@code this}, the URL and the proxy, the method's only locals. */
    private static final int CONNECTION_SLOT = 3;

    private HucInstrumentation() {}

    /** Each woven class (internal name) to its weaving: asked once, when the first of them is defined. */
    static Map<String, HookTransformer.Weaving> weavings() {
        String hook = HucHook.class.getName();
        return Map.of(HTTP_HANDLER, weaving(HTTP_HANDLER, hook), HTTPS_HANDLER, weaving(HTTPS_HANDLER, hook));
    }

    /** The weaving of handler {@code owner}, calling the public static {@code hookClass.open}; tests name a hook of their own. */
    static HookTransformer.Weaving weaving(String owner, String hookClass) {
        return new HandlerWeaving(owner, hookClass);
    }

    /** A class, not lambdas: each lambda costs a class spun in premain or as the handler loads (docs/benchmarks.md). */
    private static final class HandlerWeaving implements HookTransformer.Weaving, HookTransformer.MethodRewrite {
        private final String owner;
        private final String hookClass;

        HandlerWeaving(String owner, String hookClass) {
            this.owner = owner;
            this.hookClass = hookClass;
        }

        @Override
        public ClassVisitor visitor(ClassReader original, ClassVisitor next) {
            if (!ofTheShapeWoven(original)) {
                AgentLog.once(
                        AgentLog.Level.WARN,
                        "huc-handler-shape",
                        "this JDK's " + owner.replace('/', '.') + " has no openConnection(URL, Proxy) of the shape"
                                + " the agent weaves; HttpURLConnection calls stay unmanaged",
                        null);
                return next;
            }
            return HookTransformer.rewritingMethods(next, this);
        }

        @Override
        public MethodVisitor rewrite(int access, String name, String descriptor, MethodVisitor mv) {
            return name.equals(OPEN) && descriptor.equals(OPEN_DESCRIPTOR)
                    ? new ReturnThroughHook(
                            mv,
                            hookClass,
                            "open",
                            new Object[] {owner, "java/net/URL", "java/net/Proxy", URL_CONNECTION},
                            1,
                            2)
                    : mv;
        }
    }

    /**
     * Whether the class has the method with its three locals only and no {@code try}: the inserted frames
     * declare exactly those locals, which another local or a handler of the method's own would contradict.
     */
    static boolean ofTheShapeWoven(ClassReader reader) {
        return ReturnThroughHook.localsAtReturn(reader, OPEN, OPEN_DESCRIPTOR) == CONNECTION_SLOT;
    }
}
