/**
 * Waveform output for FlitKit simulations: {@link org.flitkit.waves.VcdWriter} streams IEEE 1364
 * value change dumps cheaply enough to record every signal of every cycle,
 * {@link org.flitkit.waves.VcdReader} lets tests assert on those dumps, and
 * {@link org.flitkit.waves.GtkwSaveFile} opens them in GTKWave with chosen traces.
 */
package org.flitkit.waves;
