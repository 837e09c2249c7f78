// A jar of the Java client with a wait at the start of named methods (issue 38's calibration builds):
//   java -cp <asm.jar>:<classes> SlowedJar <in.jar> <out.jar> [busy:]<delay nanoseconds> <class>#<method><descriptor>...
// Each named method's first instruction becomes LockSupport.parkNanos(delay): the wait alone, no CPU, as
// the Node and Go builds' timers (Java 17's Thread.sleep(ms, ns) would round the delay to whole ms). With
// busy: it calls a class the jar gains, BUSY_CLASS, whose spin(nanos) loops on System.nanoTime() that long:
// the calling thread's CPU kept busy, as a slower client's own work. Every other entry is copied as it is.
// Exits 2 naming a class or method the jar lacks (another layout of the client), after writing nothing.
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

public final class SlowedJar {
  static final String BUSY_CLASS = "com/google/cloud/spanner/ScbCalibrationBusy";

  public static void main(String[] args) throws IOException {
    if (args.length < 4) {
      System.err.println("usage: SlowedJar <in.jar> <out.jar> <delay nanoseconds> <class>#<method><descriptor>...");
      System.exit(64);
    }
    boolean busy = args[2].startsWith("busy:");
    long nanos = Long.parseLong(busy ? args[2].substring(5) : args[2]);
    // class (internal name) -> method name + descriptor
    Map<String, Set<String>> targets = new LinkedHashMap<>();
    for (int i = 3; i < args.length; i++) {
      int hash = args[i].indexOf('#');
      targets.computeIfAbsent(args[i].substring(0, hash), k -> new HashSet<>()).add(args[i].substring(hash + 1));
    }
    List<String> names = new ArrayList<>();
    List<byte[]> datas = new ArrayList<>();
    Set<String> patched = new HashSet<>();
    try (ZipInputStream in = new ZipInputStream(new FileInputStream(args[0]))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        byte[] data = readAll(in);
        String name = e.getName();
        if (name.endsWith(".class") && targets.containsKey(name.substring(0, name.length() - 6))) {
          data = slowed(data, targets.get(name.substring(0, name.length() - 6)), nanos, busy, patched);
        }
        names.add(name);
        datas.add(data);
      }
    }
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, Set<String>> t : targets.entrySet()) {
      for (String m : t.getValue()) if (!patched.contains(t.getKey() + "#" + m)) missing.add(t.getKey() + "#" + m);
    }
    if (!missing.isEmpty()) {
      System.err.println("the jar has no " + String.join(", ", missing) + ": this release's layout differs from what the slowed build patches");
      System.exit(2);
    }
    if (busy) {
      names.add(BUSY_CLASS + ".class");
      datas.add(busyClass());
    }
    try (ZipOutputStream out = new ZipOutputStream(new FileOutputStream(args[1]))) {
      for (int i = 0; i < names.size(); i++) {
        ZipEntry e = new ZipEntry(names.get(i));
        e.setTime(315532800000L); // 1980-01-01: the same jar from the same inputs
        out.putNextEntry(e);
        out.write(datas.get(i));
        out.closeEntry();
      }
    }
  }

  /** public final class ScbCalibrationBusy { public static void spin(long nanos) { long end = System.nanoTime() + nanos; while (System.nanoTime() < end); } } */
  private static byte[] busyClass() {
    // COMPUTE_FRAMES: the loop's one frame holds a long and the end, no class types to merge.
    ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
    w.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, BUSY_CLASS, null, "java/lang/Object", null);
    MethodVisitor m = w.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "spin", "(J)V", null, null);
    m.visitCode();
    m.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "nanoTime", "()J", false);
    m.visitVarInsn(Opcodes.LLOAD, 0);
    m.visitInsn(Opcodes.LADD);
    m.visitVarInsn(Opcodes.LSTORE, 2);
    Label loop = new Label();
    m.visitLabel(loop);
    m.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "nanoTime", "()J", false);
    m.visitVarInsn(Opcodes.LLOAD, 2);
    m.visitInsn(Opcodes.LCMP);
    m.visitJumpInsn(Opcodes.IFLT, loop);
    m.visitInsn(Opcodes.RETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
    w.visitEnd();
    return w.toByteArray();
  }

  private static byte[] slowed(byte[] data, Set<String> methods, long nanos, boolean busy, Set<String> patched) {
    ClassReader reader = new ClassReader(data);
    // COMPUTE_MAXS: the two words the delay takes on the stack. The frames stay as they are: the wait
    // ends with the stack and locals as the method found them.
    ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
    String owner = reader.getClassName();
    reader.accept(
        new ClassVisitor(Opcodes.ASM9, writer) {
          @Override
          public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
            if (!methods.contains(name + descriptor) || (access & Opcodes.ACC_ABSTRACT) != 0) return mv;
            patched.add(owner + "#" + name + descriptor);
            return new MethodVisitor(Opcodes.ASM9, mv) {
              @Override
              public void visitCode() {
                super.visitCode();
                super.visitLdcInsn(nanos);
                if (busy) super.visitMethodInsn(Opcodes.INVOKESTATIC, BUSY_CLASS, "spin", "(J)V", false);
                else super.visitMethodInsn(Opcodes.INVOKESTATIC, "java/util/concurrent/locks/LockSupport", "parkNanos", "(J)V", false);
              }
            };
          }
        },
        0);
    return writer.toByteArray();
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[1 << 16];
    for (int n; (n = in.read(buf)) > 0; ) out.write(buf, 0, n);
    return out.toByteArray();
  }
}
