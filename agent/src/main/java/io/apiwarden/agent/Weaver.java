package io.apiwarden.agent;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The ASM passes behind {@link HookTransformer}'s static helpers. Apart from it so that registering the transformer
 * in {@code premain} loads no ASM class: the JVM's verifier would load ASM's writer and visitor to check this code,
 * and ASM is needed only when the first class to weave is met.
 */
final class Weaver {
    private Weaver() {}

    static ClassVisitor rewritingMethods(ClassVisitor next, HookTransformer.MethodRewrite rewrite) {
        return new ClassVisitor(Opcodes.ASM9, next) {
            @Override
            public MethodVisitor visitMethod(
                    int access, String name, String descriptor, String signature, String[] exceptions) {
                MethodVisitor original = super.visitMethod(access, name, descriptor, signature, exceptions);
                return original == null ? null : rewrite.rewrite(access, name, descriptor, original);
            }
        };
    }

    static byte[] weave(HookTransformer.Weaving weaving, byte[] original) {
        ClassReader reader = new ClassReader(original);
        // Sharing the reader's constant pool lets ASM copy every method the weaving leaves alone
        // byte for byte. Frames are not computed: the few the hooks need are written by hand, so
        // ASM never has to load classes to merge types while one is being defined.
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(weaving.visitor(reader, writer), ClassReader.EXPAND_FRAMES);
        return writer.toByteArray();
    }
}
