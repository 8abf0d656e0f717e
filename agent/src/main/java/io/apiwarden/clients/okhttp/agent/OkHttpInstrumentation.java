package io.apiwarden.clients.okhttp.agent;

import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Puts the agent into OkHttp 3.x, 4.x and 5.x, which share these hooks: every
 * {@code OkHttpClient} is constructed from a builder (also {@code new OkHttpClient()}, and
 * {@code newBuilder().build()}), and every call is a {@code RealCall} (in
 * {@code okhttp3.internal.connection} from 4.0, in {@code okhttp3} before).
 *
 * <p>The inserted code calls {@link OkHttpHook} directly: OkHttp's loader sees the system loader,
 * where the agent is (checked before weaving), and every hook method catches its own failures. Only
 * {@code enqueue} branches, at its very start, where the frame is the method's first (given as is).
 */
final class OkHttpInstrumentation {
    private static final String HOOK = Type.getInternalName(OkHttpHook.class);
    private static final String OBJECT = "(Ljava/lang/Object;)V";

    private OkHttpInstrumentation() {}

    static final String CLIENT = "okhttp3/OkHttpClient";
    /** OkHttp 4 and 5's call; 3's is {@link #CALL_3}. */
    static final String CALL = "okhttp3/internal/connection/RealCall";

    static final String CALL_3 = "okhttp3/RealCall";

    /** Each woven class (internal name) to its weaving: asked once, when the first of them is defined. */
    static Map<String, HookTransformer.Weaving> weavings() {
        HookTransformer.Weaving call = new CallWeaving();
        return Map.of(CLIENT, new ClientWeaving(), CALL, call, CALL_3, call);
    }

    /** The hooks resolve, from OkHttp's loader, to the agent's own class (not to nothing, nor to a copy). */
    private abstract static class ReachableHooks implements HookTransformer.Weaving {
        @Override
        public boolean linksToAgent() {
            return true;
        }

        @Override
        public boolean canWeave(ClassLoader loader) {
            return HookTransformer.linksTo(loader, OkHttpHook.class);
        }
    }

    /** {@code OkHttpClient(Builder)}: first of all, {@code OkHttpHook.beforeBuild(builder)}, before the client copies the builder's interceptors. */
    private static final class ClientWeaving extends ReachableHooks implements HookTransformer.MethodRewrite {
        @Override
        public ClassVisitor visitor(ClassReader original, ClassVisitor next) {
            // Itself, not a lambda: a lambda costs a class spun on the app's first client (docs/benchmarks.md).
            return HookTransformer.rewritingMethods(next, this);
        }

        @Override
        public MethodVisitor rewrite(int access, String name, String descriptor, MethodVisitor mv) {
            if (!name.equals("<init>") || !descriptor.equals("(Lokhttp3/OkHttpClient$Builder;)V")) {
                return mv;
            }
            return new MethodVisitor(Opcodes.ASM9, mv) {
                @Override
                public void visitCode() {
                    super.visitCode();
                    // Before the super constructor: allowed, as it touches only the argument.
                    super.visitVarInsn(Opcodes.ALOAD, 1);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "beforeBuild", OBJECT, false);
                }
            };
        }
    }

    /**
     * {@code RealCall.enqueue(callback)}: first, {@code if (OkHttpHook.enqueue(this, callback)) return;}, the
     * agent running a call to the API on the engine's asynchronous face. {@code RealCall.cancel()}: at each
     * return, {@code OkHttpHook.onCancel(this)}, which passes the cancel on to the call's wait.
     */
    private static final class CallWeaving extends ReachableHooks {
        @Override
        public ClassVisitor visitor(ClassReader original, ClassVisitor next) {
            return HookTransformer.rewritingMethods(next, new CallRewrite(original.getClassName()));
        }
    }

    /** A class, not a lambda: a lambda costs a class spun on the app's first call (docs/benchmarks.md). */
    private static final class CallRewrite implements HookTransformer.MethodRewrite {
        private final String owner;

        CallRewrite(String owner) {
            this.owner = owner;
        }

        @Override
        public MethodVisitor rewrite(int access, String name, String descriptor, MethodVisitor mv) {
            boolean instance = (access & Opcodes.ACC_STATIC) == 0;
            if (instance && name.equals("enqueue") && descriptor.equals("(Lokhttp3/Callback;)V")) {
                return new TakeEnqueue(mv, owner);
            }
            if (instance && name.equals("cancel") && descriptor.equals("()V")) {
                return new PassOnCancel(mv);
            }
            return mv;
        }
    }

    private static final class TakeEnqueue extends MethodVisitor {
        private final String owner;

        TakeEnqueue(MethodVisitor next, String owner) {
            super(Opcodes.ASM9, next);
            this.owner = owner;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            Label asEver = new Label();
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitVarInsn(Opcodes.ALOAD, 1);
            super.visitMethodInsn(
                    Opcodes.INVOKESTATIC, HOOK, "enqueue", "(Ljava/lang/Object;Ljava/lang/Object;)Z", false);
            super.visitJumpInsn(Opcodes.IFEQ, asEver);
            super.visitInsn(Opcodes.RETURN);
            super.visitLabel(asEver);
            // The method's own code starts here, with its arguments and an empty stack (frames are expanded).
            super.visitFrame(Opcodes.F_NEW, 2, new Object[] {owner, "okhttp3/Callback"}, 0, new Object[0]);
        }
    }

    private static final class PassOnCancel extends MethodVisitor {
        PassOnCancel(MethodVisitor next) {
            super(Opcodes.ASM9, next);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.RETURN) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "onCancel", OBJECT, false);
            }
            super.visitInsn(opcode);
        }
    }
}
