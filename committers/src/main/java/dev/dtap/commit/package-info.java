/**
 * The magic and staging committers as MapReduce and Spark load them: {@code
 * DataTapCommitterFactory} and {@code DataTapMapredCommitter} bind them, {@code DtapCommitter} runs
 * task setup and task commit and hands job commit, abort and recovery to {@link
 * dev.dtap.commit.job}; {@code MagicOutputHookFactory} gives every tap its commit state ({@link
 * dev.dtap.commit.tap}); {@code ConditionalPutProbe} tells whether a store honours conditional
 * writes. Settings are in {@link dev.dtap.commit.config}, what is written to the store in {@link
 * dev.dtap.commit.record}; every request goes through {@link dev.dtap.commit.store.MultipartStore}.
 */
package dev.dtap.commit;
