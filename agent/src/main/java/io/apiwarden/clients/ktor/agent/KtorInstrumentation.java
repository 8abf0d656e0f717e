package io.apiwarden.clients.ktor.agent;

import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Manages Ktor's CIO engine at its {@code execute(HttpRequestData)}, which every request of a Ktor client on that
 * engine reaches once its plugins are done (each redirect hop, each retry of Ktor's own). In the JVM the suspending
 * method is {@code Object execute(HttpRequestData, Continuation)}; the woven code at its start is
 *
 * <pre>{@code
 * Object managed = KtorHook.execute(this, data, continuation);
 * if (managed != null) return managed;
 * }</pre>
 *
 * so a managed call returns the agent's {@code COROUTINE_SUSPENDED} (or the response) and everything else, the
 * engine's own resumptions and the agent's attempts included, runs the method as it is. Only CIO is woven: Ktor's
 * Java, OkHttp and Apache engines send through clients the agent manages already, so no call is managed twice.
 */
final class KtorInstrumentation {
    static final String ENGINE = "io/ktor/client/engine/cio/CIOEngine";
    private static final String HOOK = Type.getInternalName(KtorHook.class);
    private static final String EXECUTE =
            "(Lio/ktor/client/request/HttpRequestData;Lkotlin/coroutines/Continuation;)Ljava/lang/Object;";

    private KtorInstrumentation() {}

    /** Each woven class (internal name) to its weaving: asked once, when the first of them is defined. */
    static Map<String, HookTransformer.Weaving> weavings() {
        return Map.of(ENGINE, new EngineWeaving());
    }

    private static final class EngineWeaving implements HookTransformer.Weaving {
        @Override
        public boolean linksToAgent() {
            return true;
        }

        @Override
        public boolean canWeave(ClassLoader loader) {
            return HookTransformer.linksTo(loader, KtorHook.class);
        }

        @Override
        public ClassVisitor visitor(ClassReader original, ClassVisitor next) {
            return HookTransformer.rewritingMethods(next, (access, name, descriptor, mv) -> {
                if ((access & Opcodes.ACC_STATIC) == 0 && name.equals("execute") && descriptor.equals(EXECUTE)) {
                    return new ManagedExecute(mv);
                }
                return mv;
            });
        }
    }

    /**
     * The hook's call and its branch, first in the method. The one frame it needs (where the method goes on) is
     * written here: the method's arguments as locals, the hook's null on the stack, popped at once.
     */
    private static final class ManagedExecute extends MethodVisitor {
        ManagedExecute(MethodVisitor next) {
            super(Opcodes.ASM9, next);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            Label asItIs = new Label();
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitVarInsn(Opcodes.ALOAD, 1);
            super.visitVarInsn(Opcodes.ALOAD, 2);
            super.visitMethodInsn(
                    Opcodes.INVOKESTATIC,
                    HOOK,
                    "execute",
                    "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                    false);
            super.visitInsn(Opcodes.DUP);
            super.visitJumpInsn(Opcodes.IFNULL, asItIs);
            super.visitInsn(Opcodes.ARETURN);
            super.visitLabel(asItIs);
            super.visitFrame(
                    Opcodes.F_NEW,
                    3,
                    new Object[] {ENGINE, "io/ktor/client/request/HttpRequestData", "kotlin/coroutines/Continuation"},
                    1,
                    new Object[] {"java/lang/Object"});
            super.visitInsn(Opcodes.POP);
        }
    }
}
