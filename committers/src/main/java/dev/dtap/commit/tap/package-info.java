/**
 * The committers' state for one tap in one JVM ({@code CommitTap}, the tap's output hook): its
 * store, created on first use and hiding the backend in errors ({@code BackendHidingStore}); its
 * upload threads and part buffers ({@code UploadPool}, {@code PartBuffers}); the magic streams that
 * write a file's parts to a pending upload and journal it ({@code MagicOutputStream}, {@code
 * JournaledUpload}); what each attempt wrote ({@code AttemptFiles}); its counters ({@code
 * CommitterMetrics}); the audit ids carried to pool threads ({@code AuditContext}); and the named
 * steps of job commit where tests inject faults ({@code CommitSteps}).
 */
package dev.dtap.commit.tap;
