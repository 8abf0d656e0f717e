package io.apiwarden.agent;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Rewrites each {@code return value;} of a method of the JDK's own modules so that the value first goes
 * through a public static hook of the agent, found by reflection through the system class loader: the
 * JDK's modules cannot link to the agent's classes on the class path. Each return becomes, in effect:
 * <pre>{@code
 * value = (T) ...;
 * try {
 *     value = (T) Class.forName(hookClass, true, ClassLoader.getSystemClassLoader())
 *             .getMethod(hookMethod, T.class, A1.class, ...).invoke(null, value, a1, ...);
 * } catch (Throwable t) {
 *     // the app gets the value the JDK made
 * }
 * return value;
 * }</pre>
 * The inserted frames are written by hand (no frame is computed while a JDK class is being defined), so the
 * caller states every local the method has at its returns ({@link #localsAtReturn}); a method with a
 * {@code try} of its own is never rewritten, as a handler of its own could see other locals.
 */
public final class ReturnThroughHook extends MethodVisitor {
    private final String hookClass;
    private final String hookMethod;
    private final Object[] frameLocals;
    private final int[] argumentSlots;
    private final int valueSlot;
    private final String valueType;

    /**
     * @param frameLocals the method's locals as the inserted frames declare them (internal class names, or
     *        {@link Opcodes#TOP} for one unused from the return on), every one a one-slot value, ending with
     *        the slot the returned value is kept in, of the method's return type
     * @param argumentSlots the locals handed to the hook after the value, of the types {@code frameLocals} names
     */
    public ReturnThroughHook(
            MethodVisitor next, String hookClass, String hookMethod, Object[] frameLocals, int... argumentSlots) {
        super(Opcodes.ASM9, next);
        if (argumentSlots.length > 4) {
            throw new IllegalArgumentException("a hook takes the value and at most four arguments");
        }
        this.hookClass = hookClass;
        this.hookMethod = hookMethod;
        this.frameLocals = frameLocals.clone();
        this.argumentSlots = argumentSlots.clone();
        this.valueSlot = frameLocals.length - 1;
        this.valueType = (String) frameLocals[valueSlot];
    }

    /**
     * The number of local slots {@code method} uses; -1 when the class has no such method, or when the method
     * has a {@code try} of its own, which the inserted frames could contradict.
     */
    public static int localsAtReturn(ClassReader reader, String method, String descriptor) {
        int[] maxLocals = {-1};
        boolean[] hasTry = {false};
        reader.accept(
                new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public MethodVisitor visitMethod(
                            int access, String name, String desc, String signature, String[] exceptions) {
                        if (!name.equals(method) || !desc.equals(descriptor)) {
                            return null;
                        }
                        return new MethodVisitor(Opcodes.ASM9) {
                            @Override
                            public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                                hasTry[0] = true;
                            }

                            @Override
                            public void visitMaxs(int maxStack, int locals) {
                                maxLocals[0] = locals;
                            }
                        };
                    }
                },
                ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return hasTry[0] ? -1 : maxLocals[0];
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode != Opcodes.ARETURN) {
            super.visitInsn(opcode);
            return;
        }
        Label tryStart = new Label();
        Label tryEnd = new Label();
        Label handler = new Label();
        Label done = new Label();
        super.visitTypeInsn(Opcodes.CHECKCAST, valueType);
        super.visitVarInsn(Opcodes.ASTORE, valueSlot);
        super.visitTryCatchBlock(tryStart, tryEnd, handler, "java/lang/Throwable");
        super.visitLabel(tryStart);
        super.visitLdcInsn(hookClass);
        super.visitInsn(Opcodes.ICONST_1);
        super.visitMethodInsn(
                Opcodes.INVOKESTATIC,
                "java/lang/ClassLoader",
                "getSystemClassLoader",
                "()Ljava/lang/ClassLoader;",
                false);
        super.visitMethodInsn(
                Opcodes.INVOKESTATIC,
                "java/lang/Class",
                "forName",
                "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;",
                false);
        super.visitLdcInsn(hookMethod);
        newArray("java/lang/Class");
        for (int i = 0; i <= argumentSlots.length; i++) {
            super.visitInsn(Opcodes.DUP);
            push(i);
            super.visitLdcInsn(Type.getObjectType((String) frameLocals[slotOfArgument(i)]));
            super.visitInsn(Opcodes.AASTORE);
        }
        super.visitMethodInsn(
                Opcodes.INVOKEVIRTUAL,
                "java/lang/Class",
                "getMethod",
                "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;",
                false);
        super.visitInsn(Opcodes.ACONST_NULL);
        newArray("java/lang/Object");
        for (int i = 0; i <= argumentSlots.length; i++) {
            super.visitInsn(Opcodes.DUP);
            push(i);
            super.visitVarInsn(Opcodes.ALOAD, slotOfArgument(i));
            super.visitInsn(Opcodes.AASTORE);
        }
        super.visitMethodInsn(
                Opcodes.INVOKEVIRTUAL,
                "java/lang/reflect/Method",
                "invoke",
                "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;",
                false);
        super.visitTypeInsn(Opcodes.CHECKCAST, valueType);
        super.visitVarInsn(Opcodes.ASTORE, valueSlot);
        super.visitLabel(tryEnd);
        super.visitJumpInsn(Opcodes.GOTO, done);
        super.visitLabel(handler);
        super.visitFrame(Opcodes.F_NEW, frameLocals.length, frameLocals, 1, new Object[] {"java/lang/Throwable"});
        super.visitInsn(Opcodes.POP);
        super.visitLabel(done);
        super.visitFrame(Opcodes.F_NEW, frameLocals.length, frameLocals, 0, new Object[0]);
        super.visitVarInsn(Opcodes.ALOAD, valueSlot);
        super.visitInsn(Opcodes.ARETURN);
    }

    /** The hook's {@code i}th argument: the value, then the arguments named. */
    private int slotOfArgument(int i) {
        return i == 0 ? valueSlot : argumentSlots[i - 1];
    }

    /** A new array, as long as the hook's argument list, of {@code type}. */
    private void newArray(String type) {
        push(argumentSlots.length + 1);
        super.visitTypeInsn(Opcodes.ANEWARRAY, type);
    }

    /** Hooks take a few arguments: a constant instruction pushes each count and index. */
    private void push(int small) {
        super.visitInsn(Opcodes.ICONST_0 + small);
    }
}
