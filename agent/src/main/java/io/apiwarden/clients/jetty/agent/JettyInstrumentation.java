package io.apiwarden.clients.jetty.agent;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.agent.LinkedWeaving;
import java.util.Map;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Puts the agent into Jetty's client 12 (12.0 and 12.1 alike): every request is an
 * {@code org.eclipse.jetty.client.transport.HttpRequest}, and every way of sending one ends in its
 * {@code send(Response.CompleteListener)}: the blocking {@code send()} through a listener of Jetty's own,
 * Spring's {@code JettyClientHttpRequestFactory} with an {@code InputStreamResponseListener}, the
 * reactive client behind {@code JettyClientHttpConnector}, and Jetty's own next hop of a redirect. Woven
 * there, first of all:
 *
 * <pre>{@code
 * if (JettyHook.send(this, this.client, listener)) return;
 * }</pre>
 *
 * and at the start of {@code abort(Throwable)}, {@code JettyHook.aborted(this, cause)}, so that the app's
 * abort reaches a call the agent runs (the app's request itself never goes out). The one branch lands on
 * a frame written here (the method's entry state, then a {@code nop}, so that it never shares an offset with
 * a frame of the original code).
 */
final class JettyInstrumentation {
    static final String REQUEST = "org/eclipse/jetty/client/transport/HttpRequest";
    private static final String HOOK = Type.getInternalName(JettyHook.class);
    private static final String LISTENER = "org/eclipse/jetty/client/Response$CompleteListener";

    private JettyInstrumentation() {}

    /** Each woven class (internal name) to its weaving: asked once, when the first of them is defined. */
    static Map<String, HookTransformer.Weaving> weavings() {
        return Map.of(REQUEST, requestWeaving());
    }

    private static HookTransformer.Weaving requestWeaving() {
        return new LinkedWeaving(JettyHook.class, (access, name, descriptor, mv) -> {
            if ((access & Opcodes.ACC_STATIC) != 0) {
                return mv;
            }
            if (name.equals("send") && descriptor.equals("(L" + LISTENER + ";)V")) {
                return new TakeOver(mv);
            }
            if (name.equals("abort")
                    && descriptor.equals("(Ljava/lang/Throwable;)Ljava/util/concurrent/CompletableFuture;")) {
                return new PassOnAbort(mv);
            }
            return mv;
        });
    }

    /** {@code send(listener)}: returns at once when the agent took the request on. */
    private static final class TakeOver extends MethodVisitor {
        TakeOver(MethodVisitor next) {
            super(Opcodes.ASM9, next);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            Label asWithoutTheAgent = new Label();
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitFieldInsn(Opcodes.GETFIELD, REQUEST, "client", "Lorg/eclipse/jetty/client/HttpClient;");
            super.visitVarInsn(Opcodes.ALOAD, 1);
            super.visitMethodInsn(
                    Opcodes.INVOKESTATIC,
                    HOOK,
                    "send",
                    "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Z",
                    false);
            super.visitJumpInsn(Opcodes.IFEQ, asWithoutTheAgent);
            super.visitInsn(Opcodes.RETURN);
            super.visitLabel(asWithoutTheAgent);
            super.visitFrame(Opcodes.F_NEW, 2, new Object[] {REQUEST, LISTENER}, 0, new Object[0]);
            super.visitInsn(Opcodes.NOP);
        }
    }

    /** {@code abort(cause)}: first, {@code JettyHook.aborted(this, cause)}. */
    private static final class PassOnAbort extends MethodVisitor {
        PassOnAbort(MethodVisitor next) {
            super(Opcodes.ASM9, next);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitVarInsn(Opcodes.ALOAD, 1);
            super.visitMethodInsn(
                    Opcodes.INVOKESTATIC, HOOK, "aborted", "(Ljava/lang/Object;Ljava/lang/Object;)V", false);
        }
    }
}
