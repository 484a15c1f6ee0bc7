/**
 * The committers' settings: every key declared once with the default that is applied ({@code
 * CommitterKeys}, obsolete keys included), parsed and validated once into an immutable {@code
 * CommitterConfig}, and what a job does with output already at its destination ({@code
 * ConflictMode}).
 */
package dev.dtap.commit.config;
