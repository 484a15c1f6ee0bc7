package dev.dtap.fs.testing;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Names the seed of a property test's failure in its message: the tests draw new inputs every run
 * (jqwik's random seed; tries per module in {@code junit-platform.properties}, more with {@code
 * -Djqwik.tries.default=N}), so the seed is what reruns a failure CI met, and a CI log shows the
 * failure's message, not jqwik's report.
 *
 * <p>Registered on a property class with {@code @AddLifecycleHook(PropertyRuns.class)}. Stateless.
 */
public final class PropertyRuns implements AroundPropertyHook {
  /** From the class it is registered on to each of its properties. */
  @Override
  public PropagationMode propagateTo() {
    return PropagationMode.ALL_DESCENDANTS;
  }

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    // thrown, not mapped: jqwik reports a failed result's shrunk sample's error, not the result's
    PropertyExecutionResult result = property.execute();
    if (result.status() != PropertyExecutionResult.Status.FAILED || !result.seed().isPresent()) {
      return result;
    }
    String seed = result.seed().get();
    Throwable cause = result.throwable().orElse(null);
    throw new AssertionError(
        context.extendedLabel()
            + " failed with seed "
            + seed
            + " (run it again with @Property(seed = \""
            + seed
            + "\")): "
            + (cause == null ? "" : cause.getMessage()),
        cause);
  }
}
