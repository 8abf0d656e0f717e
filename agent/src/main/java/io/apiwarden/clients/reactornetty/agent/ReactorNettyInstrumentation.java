package io.apiwarden.clients.reactornetty.agent;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.agent.LinkedWeaving;
import java.util.Map;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Puts the agent into Reactor Netty's HTTP client (1.0 to 1.3), at two methods every request goes
 * through whatever way the app reads the response ({@code response()}, {@code responseSingle},
 * {@code responseContent}, {@code responseConnection}, the last being Spring's):
 *
 * <ul>
 *   <li>{@code HttpClientConnect.connect()}, which returns the {@code Mono<Connection>} of one
 *       request: its result is handed to {@link ReactorNettyHook#onConnect}, which returns it as it
 *       is outside the API and a managed one inside;
 *   <li>{@code HttpClientConfig.defaultConnectionObserver()}, read as each request is subscribed:
 *       its result is handed to {@link ReactorNettyHook#observer}, which adds the observer that sets
 *       a managed attempt's headers as the request is prepared.
 * </ul>
 * The inserted code replaces the returned value; none of it branches, so the methods' stack map
 * frames stay as they were. A third point, the start of {@code HttpClient}'s static factories, only tells the
 * agent that a client is being built ({@link ReactorNettyHook#onBuild}).
 */
final class ReactorNettyInstrumentation {
    private static final String HOOK = Type.getInternalName(ReactorNettyHook.class);
    private static final Type HTTP_CLIENT = Type.getObjectType("reactor/netty/http/client/HttpClient");
    private static final String TWO_OBJECTS = "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";

    private ReactorNettyInstrumentation() {}

    static final String CONNECT = "reactor/netty/http/client/HttpClientConnect";
    static final String CLIENT = "reactor/netty/http/client/HttpClient";
    static final String CONFIG = "reactor/netty/http/client/HttpClientConfig";

    /** Each woven class (internal name) to its weaving: asked once, when the first of them is defined. */
    static Map<String, HookTransformer.Weaving> weavings() {
        return Map.of(
                CONNECT,
                returnWeaving("connect", "()Lreactor/core/publisher/Mono;", "onConnect", "reactor/core/publisher/Mono"),
                CLIENT,
                factoryWeaving(),
                CONFIG,
                returnWeaving(
                        "defaultConnectionObserver",
                        "()Lreactor/netty/ConnectionObserver;",
                        "observer",
                        "reactor/netty/ConnectionObserver"));
    }

    /**
     * Every static factory of {@code HttpClient} ({@code create()}, {@code create(ConnectionProvider)},
     * {@code newConnection()}): the app is building a client, so {@code ReactorNettyHook.onBuild(HttpClient.class)}
     * starts getting the agent ready for its first request. Inserted at the start, with no branch.
     */
    private static HookTransformer.Weaving factoryWeaving() {
        return new LinkedWeaving(ReactorNettyHook.class, (access, name, desc, mv) -> {
            if ((access & Opcodes.ACC_STATIC) == 0 || !desc.endsWith(")" + HTTP_CLIENT.getDescriptor())) {
                return mv;
            }
            return new MethodVisitor(Opcodes.ASM9, mv) {
                @Override
                public void visitCode() {
                    super.visitCode();
                    super.visitLdcInsn(HTTP_CLIENT);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "onBuild", "(Ljava/lang/Class;)V", false);
                }
            };
        });
    }

    /**
     * One instance method whose returned value goes through a hook first:
     * {@code return (Type) ReactorNettyHook.hook(this, value);}.
     */
    private static HookTransformer.Weaving returnWeaving(
            String method, String descriptor, String hook, String returnType) {
        return new LinkedWeaving(ReactorNettyHook.class, (access, name, desc, mv) -> {
            if ((access & Opcodes.ACC_STATIC) != 0 || !name.equals(method) || !desc.equals(descriptor)) {
                return mv;
            }
            return new MethodVisitor(Opcodes.ASM9, mv) {
                @Override
                public void visitInsn(int opcode) {
                    if (opcode == Opcodes.ARETURN) {
                        // value -> value, this -> this, value -> hook(this, value) -> (Type)
                        super.visitVarInsn(Opcodes.ALOAD, 0);
                        super.visitInsn(Opcodes.SWAP);
                        super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, hook, TWO_OBJECTS, false);
                        super.visitTypeInsn(Opcodes.CHECKCAST, returnType);
                    }
                    super.visitInsn(opcode);
                }
            };
        });
    }
}
