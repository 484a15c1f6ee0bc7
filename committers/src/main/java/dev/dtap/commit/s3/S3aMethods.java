package dev.dtap.commit.s3;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.hadoop.util.VersionInfo;

/**
 * Reaches S3A's own methods by name: they are private API whose parameter types differ between
 * Hadoop lines (SDK v1 in 3.3, SDK v2 from 3.4), so the committers look them up when a tap's store
 * is made, and a Hadoop whose S3A lacks one fails then, naming it. Stateless.
 */
final class S3aMethods {
  private S3aMethods() {}

  /**
   * Loads a class from S3A's class loader.
   *
   * @param near a class of S3A
   * @param name the class's name
   * @return the class
   * @throws IOException naming it, if this S3A has no such class
   */
  static Class<?> load(Class<?> near, String name) throws IOException {
    try {
      return Class.forName(name, false, near.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw missing(name);
    }
  }

  /**
   * A public method, found on a public interface of the class where it has one (S3A's internal
   * implementations are private classes behind public interfaces).
   *
   * @param c the class of the object the method is called on
   * @param name the method's name
   * @param params its parameter types
   * @return the method
   * @throws IOException naming it, if there is no such method
   */
  static Method method(Class<?> c, String name, Class<?>... params) throws IOException {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      for (Class<?> i : k.getInterfaces()) {
        try {
          return i.getMethod(name, params);
        } catch (NoSuchMethodException e) {
          // try the next
        }
      }
    }
    try {
      return c.getMethod(name, params);
    } catch (NoSuchMethodException e) {
      throw missing(c.getName() + "." + name);
    }
  }

  /**
   * @return whether a class has a public method of that name and parameters
   */
  static boolean has(Class<?> c, String name, Class<?>... params) {
    try {
      c.getMethod(name, params);
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /**
   * Calls a method, unwrapping what it throws.
   *
   * @param m the method
   * @param target the object, or null for a static method
   * @param args the arguments
   * @return what it returns
   * @throws IOException what it throws, or a failure to call it
   */
  static Object call(Method m, Object target, Object... args) throws IOException {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IOException("S3A's " + m.getName() + " failed: " + c, c);
    } catch (IllegalAccessException e) {
      throw new IOException("S3A's " + m.getName() + " is not accessible: " + e.getMessage(), e);
    }
  }

  private static IOException missing(String what) {
    return new IOException(
        "The dtap committers need S3A's "
            + what
            + ", which this Hadoop's S3A ("
            + VersionInfo.getVersion()
            + ") lacks; see docs/dependencies.md");
  }
}
