package io.apiwarden.agent;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Weaves a watch into one method of a client the agent does not manage. The method's first
 * instruction becomes {@code apiwarden$unmanagedCall(first, second);}, a private static method added to
 * the class with two static fields:
 * <pre>{@code
 * private static boolean apiwarden$watchOver;
 * private static BiPredicate apiwarden$watch;
 *
 * private static void apiwarden$unmanagedCall(Object first, Object second) {
 *     if (apiwarden$watchOver) return;
 *     try {
 *         BiPredicate watch = apiwarden$watch;
 *         if (watch == null) {
 *             watch = (BiPredicate) Class.forName(hook, true, ClassLoader.getSystemClassLoader())
 *                     .getMethod("watch", String.class).invoke(null, client);
 *             apiwarden$watch = watch;
 *         }
 *         if (watch.test(first, second)) apiwarden$watchOver = true;
 *     } catch (Throwable t) {
 *         apiwarden$watchOver = true;
 *     }
 * }
 * }</pre>
 * Once the watch is over (the warning given, or anything failed) a call costs one read of a static
 * field, which the JIT inlines. Reflection, because the class may be in {@code java.base} or in a loader
 * that does not see the agent; it runs once per woven class. The original method gets no branch, so its
 * stack map frames stay as they were; the added method writes its own. Members are added, so the class
 * must be woven when it is first defined (see {@link HookTransformer}).
 */
final class UnmanagedCallWeaving extends ClassVisitor {
    static final String CHECK = "apiwarden$unmanagedCall";
    static final String CHECK_DESCRIPTOR = "(Ljava/lang/Object;Ljava/lang/Object;)V";
    static final String OVER = "apiwarden$watchOver";
    static final String WATCH = "apiwarden$watch";
    private static final String BI_PREDICATE = "java/util/function/BiPredicate";
    private static final String OBJECT = "java/lang/Object";
    /** Class files before Java 6 have no stack map frames; the added method is written with them. */
    private static final int JAVA_6 = 50;

    private static final int ABSTRACT_OR_STATIC = Opcodes.ACC_ABSTRACT | Opcodes.ACC_STATIC | Opcodes.ACC_NATIVE;

    private final UnmanagedClientInstrumentation.Site site;
    private final String hookClass;
    private String owner;
    private boolean woven;

    private UnmanagedCallWeaving(ClassVisitor next, UnmanagedClientInstrumentation.Site site, String hookClass) {
        super(Opcodes.ASM9, next);
        this.site = site;
        this.hookClass = hookClass;
    }

    /** The visitor that weaves {@code site} into the class {@code original}, or {@code next} itself when the class cannot take it. */
    static ClassVisitor visitor(
            ClassReader original, ClassVisitor next, UnmanagedClientInstrumentation.Site site, String hookClass) {
        int major = original.readUnsignedShort(6);
        boolean isInterface = (original.getAccess() & Opcodes.ACC_INTERFACE) != 0;
        return major < JAVA_6 || isInterface ? next : new UnmanagedCallWeaving(next, site, hookClass);
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        owner = name;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(
            int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (mv == null || (access & ABSTRACT_OR_STATIC) != 0 || !site.matches(name, descriptor)) {
            return mv;
        }
        woven = true;
        return new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitCode() {
                super.visitCode();
                loadArgument(this, site.firstSlot);
                loadArgument(this, site.secondSlot);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, owner, CHECK, CHECK_DESCRIPTOR, false);
            }
        };
    }

    private static void loadArgument(MethodVisitor mv, int slot) {
        if (slot < 0) {
            mv.visitInsn(Opcodes.ACONST_NULL);
        } else {
            mv.visitVarInsn(Opcodes.ALOAD, slot);
        }
    }

    @Override
    public void visitEnd() {
        if (woven) {
            int member = Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC;
            FieldVisitor over = super.visitField(member, OVER, "Z", null, null);
            if (over != null) {
                over.visitEnd();
            }
            FieldVisitor watch = super.visitField(member, WATCH, "L" + BI_PREDICATE + ";", null, null);
            if (watch != null) {
                watch.visitEnd();
            }
            MethodVisitor check = super.visitMethod(member, CHECK, CHECK_DESCRIPTOR, null, null);
            if (check != null) {
                writeCheck(check);
            }
        }
        super.visitEnd();
    }

    private void writeCheck(MethodVisitor mv) {
        Label watching = new Label();
        Label tryStart = new Label();
        Label haveWatch = new Label();
        Label tryEnd = new Label();
        Label handler = new Label();
        Object[] arguments = {OBJECT, OBJECT};
        Object[] withWatch = {OBJECT, OBJECT, BI_PREDICATE};
        mv.visitCode();
        mv.visitTryCatchBlock(tryStart, tryEnd, handler, "java/lang/Throwable");
        mv.visitFieldInsn(Opcodes.GETSTATIC, owner, OVER, "Z");
        mv.visitJumpInsn(Opcodes.IFEQ, watching);
        mv.visitInsn(Opcodes.RETURN);

        mv.visitLabel(watching);
        mv.visitFrame(Opcodes.F_NEW, 2, arguments, 0, new Object[0]);
        mv.visitLabel(tryStart);
        mv.visitFieldInsn(Opcodes.GETSTATIC, owner, WATCH, "L" + BI_PREDICATE + ";");
        mv.visitVarInsn(Opcodes.ASTORE, 2);
        mv.visitVarInsn(Opcodes.ALOAD, 2);
        mv.visitJumpInsn(Opcodes.IFNONNULL, haveWatch);
        mv.visitLdcInsn(hookClass);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitMethodInsn(
                Opcodes.INVOKESTATIC,
                "java/lang/ClassLoader",
                "getSystemClassLoader",
                "()Ljava/lang/ClassLoader;",
                false);
        mv.visitMethodInsn(
                Opcodes.INVOKESTATIC,
                "java/lang/Class",
                "forName",
                "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;",
                false);
        mv.visitLdcInsn("watch");
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Class");
        mv.visitInsn(Opcodes.DUP);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitLdcInsn(Type.getObjectType("java/lang/String"));
        mv.visitInsn(Opcodes.AASTORE);
        mv.visitMethodInsn(
                Opcodes.INVOKEVIRTUAL,
                "java/lang/Class",
                "getMethod",
                "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;",
                false);
        mv.visitInsn(Opcodes.ACONST_NULL);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitTypeInsn(Opcodes.ANEWARRAY, OBJECT);
        mv.visitInsn(Opcodes.DUP);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitLdcInsn(site.client);
        mv.visitInsn(Opcodes.AASTORE);
        mv.visitMethodInsn(
                Opcodes.INVOKEVIRTUAL,
                "java/lang/reflect/Method",
                "invoke",
                "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;",
                false);
        mv.visitTypeInsn(Opcodes.CHECKCAST, BI_PREDICATE);
        mv.visitInsn(Opcodes.DUP);
        mv.visitFieldInsn(Opcodes.PUTSTATIC, owner, WATCH, "L" + BI_PREDICATE + ";");
        mv.visitVarInsn(Opcodes.ASTORE, 2);

        mv.visitLabel(haveWatch);
        mv.visitFrame(Opcodes.F_NEW, 3, withWatch, 0, new Object[0]);
        mv.visitVarInsn(Opcodes.ALOAD, 2);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(
                Opcodes.INVOKEINTERFACE, BI_PREDICATE, "test", "(Ljava/lang/Object;Ljava/lang/Object;)Z", true);
        mv.visitJumpInsn(Opcodes.IFEQ, tryEnd);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitFieldInsn(Opcodes.PUTSTATIC, owner, OVER, "Z");
        mv.visitLabel(tryEnd);
        mv.visitFrame(Opcodes.F_NEW, 3, withWatch, 0, new Object[0]);
        mv.visitInsn(Opcodes.RETURN);

        mv.visitLabel(handler);
        mv.visitFrame(Opcodes.F_NEW, 2, arguments, 1, new Object[] {"java/lang/Throwable"});
        mv.visitInsn(Opcodes.POP);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitFieldInsn(Opcodes.PUTSTATIC, owner, OVER, "Z");
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }
}
