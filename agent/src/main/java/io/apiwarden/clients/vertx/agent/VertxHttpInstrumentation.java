package io.apiwarden.clients.vertx.agent;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.agent.LinkedWeaving;
import java.util.Map;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Puts the agent into Vert.x core's HTTP client (4.5 and 5), at the two methods of {@code HttpClientImpl} every request
 * starts from (the other {@code request} overloads, {@code WebClient} and the Quarkus REST client call them):
 *
 * <ul>
 *   <li>{@code request(RequestOptions)}: its returned future goes through {@link VertxHttpHook#onRequest}, which
 *       returns it as it is outside the API and one of the managed request inside;
 *   <li>{@code request(RequestOptions, Handler)} (4.5 only): its handler is replaced on entry by
 *       {@link VertxHttpHook#onRequestHandler}'s, which hands the app the managed request.
 * </ul>
 * Neither inserted sequence branches, so the methods' stack map frames stay as they were.
 */
final class VertxHttpInstrumentation {
    private static final String HOOK = Type.getInternalName(VertxHttpHook.class);
    private static final String THREE_OBJECTS =
            "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";
    private static final String WITH_FUTURE = "(Lio/vertx/core/http/RequestOptions;)Lio/vertx/core/Future;";
    private static final String WITH_HANDLER = "(Lio/vertx/core/http/RequestOptions;Lio/vertx/core/Handler;)V";

    private VertxHttpInstrumentation() {}

    static final String CLIENT = "io/vertx/core/http/impl/HttpClientImpl";

    /** Each woven class (internal name) to its weaving: asked once, when the first of them is defined. */
    static Map<String, HookTransformer.Weaving> weavings() {
        return Map.of(CLIENT, requestWeaving());
    }

    private static HookTransformer.Weaving requestWeaving() {
        return new LinkedWeaving(VertxHttpHook.class, (access, name, desc, mv) -> {
            if ((access & Opcodes.ACC_STATIC) != 0 || !name.equals("request")) {
                return mv;
            }
            if (desc.equals(WITH_FUTURE)) {
                return new ReturnedFuture(mv);
            }
            return desc.equals(WITH_HANDLER) ? new ReplacedHandler(mv) : mv;
        });
    }

    /** {@code return (Future) VertxHttpHook.onRequest(this, options, future);} */
    private static final class ReturnedFuture extends MethodVisitor {
        ReturnedFuture(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.ARETURN) {
                // future -> this, future -> this, options, future
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitInsn(Opcodes.SWAP);
                super.visitVarInsn(Opcodes.ALOAD, 1);
                super.visitInsn(Opcodes.SWAP);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "onRequest", THREE_OBJECTS, false);
                super.visitTypeInsn(Opcodes.CHECKCAST, "io/vertx/core/Future");
            }
            super.visitInsn(opcode);
        }
    }

    /** {@code handler = (Handler) VertxHttpHook.onRequestHandler(this, options, handler);} first. */
    private static final class ReplacedHandler extends MethodVisitor {
        ReplacedHandler(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitVarInsn(Opcodes.ALOAD, 1);
            super.visitVarInsn(Opcodes.ALOAD, 2);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "onRequestHandler", THREE_OBJECTS, false);
            super.visitTypeInsn(Opcodes.CHECKCAST, "io/vertx/core/Handler");
            super.visitVarInsn(Opcodes.ASTORE, 2);
        }
    }
}
