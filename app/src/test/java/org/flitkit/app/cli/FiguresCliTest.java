package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.flitkit.app.Catalog;
import org.flitkit.figures.FigureRegistry;
import org.flitkit.figures.FigureSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hdl figures --only nrc} into a fresh directory: the measured rows, exactly; the table, plots (valid
 * PNGs under 100 KB) and data; then {@code --only} one figure, which keeps the other rows and their dates.
 * Runs the NRC's E2PROM sweep at board timing: about a minute and a half of CPU.
 */
class FiguresCliTest {
    static final String BY = " | `./hdl figures --only nrc` |";

    @Test
    void measuresTheNrcFiguresAndWritesTableAndPlots(@TempDir Path dir) throws Exception {
        String today = LocalDate.now().toString();
        HdlCliTest.Run r = HdlCliTest.hdl("figures", "--only", "nrc", "--out", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).isEqualTo("measuring nrc: 10 figure(s), 3 slow (minutes)\n");
        List<String> rows = List.of(
                "| `nrc-rs-packet` | one packet over the 20-bit relay-station path (back to back at the NMA) | [1] Section 3.4.3 (relay stations) "
                        + "| 40 | 40 | cycles | 0.0 | ±10 % | pass | " + today + BY,
                "| `nrc-rs-crossing` | request to the NMA: cycles per relay station crossed | [1] Section 3.4.3 (relay stations) "
                        + "| 1 | - | cycles/RS | - | - | beyond paper | " + today + BY,
                "| `nrc-reg-read` | in-band register read, one hop (NRC mean over its 24 ports) | [1] Section 4.1, Fig. 8(a)-(c) "
                        + "| 0.95 | 6.73 | us | -85.9 | - | not modelled | " + today + BY,
                "| `nrc-reg-processing` | register read processing latency: the fit of the 24 ports' reads against the relay stations crossed, "
                        + "at none | [1] Section 4.3 (latency model) | 0.88 | 5.9597 | us | -85.2 | - | not modelled | " + today + BY,
                "| `nrc-write-vs-read` | register write / read latency (NRC mean over its 24 ports) | [1] Section 4.1, Fig. 8(a)-(c) "
                        + "| 0.989 | < 1 | ratio | - | in range | pass | " + today + BY,
                "| `nrc-read2-vs-read1` | 2-register read / 1-register read (NRC mean over its 24 ports) | [1] Section 4.1, Fig. 8(d) "
                        + "| 1.01 | > 1, < 2 | ratio | - | in range | pass | " + today + BY,
                "| `nrc-write2-vs-write1` | 2-register write / 1-register write (NRC mean over its 24 ports) | [1] Section 4.1, Fig. 8(d) "
                        + "| 1 | 1 | ratio | 0.0 | ±10 % | pass | " + today + BY,
                "| `nrc-eep-read-step` | E2PROM read: latency added by each extra address in the request | [1] Section 4.2, Fig. 9(c)-(d) "
                        + "| 121.66 | 150 | us/address | -18.9 | - | not modelled | " + today + BY,
                "| `nrc-eep-write-step` | E2PROM write: latency added by each extra address in the request | [1] Section 4.2, Fig. 9(c)-(d) "
                        + "| 3112.86 | 3000 | us/address | +3.8 | - | calibrated | " + today + BY,
                "| `nrc-eep-processing` | E2PROM access processing latency (1-address read) | [1] Section 4.3 (latency model) "
                        + "| 122.56 | 157.826 | us | -22.3 | - | not modelled | " + today + BY);
        assertThat(r.outLines()).hasSize(rows.size() + 2);
        assertThat(r.outLines().subList(1, rows.size() + 1)).containsExactlyElementsOf(rows);
        assertThat(r.lastLine()).isEqualTo("wrote " + dir.resolve("README.md") + ": 10 figure(s) measured, 4 plot(s)");
        assertThat(Files.readString(dir.resolve("README.md"))).contains(rows);
        assertThat(Files.readString(dir.resolve("parameters.md"))).contains("| E2PROM write cycle tWC | 3 | ms | calibrated | ",
                "| chips' clock (the link frame clock) | 424.24 | MHz | derived | ");
        for (String curve : List.of("nrc-rs-crossing", "nrc-reg-read", "nrc-eep-read-step", "nrc-eep-write-step")) {
            Path png = dir.resolve(curve + ".png");
            BufferedImage img = ImageIO.read(png.toFile());
            assertThat(img).as(png + " is a PNG image").isNotNull();
            assertThat(img.getWidth()).isEqualTo(800);
            assertThat(Files.size(png)).isLessThan(100_000);
            assertThat(Files.readString(dir.resolve(curve + ".csv"))).startsWith("series,kind,x,y\nmodel");
        }
        assertThat(Files.readString(dir.resolve("nrc-eeprom-sweep.csv"))).isEqualTo("""
                addresses,write_cycles,read_cycles
                1,311376,12256
                2,622662,24422
                3,933948,36588
                4,1245234,48754
                5,1556520,60920
                6,1867806,73086
                """);

        // one figure again: its row is re-dated, every other row keeps the date it had
        Path log = dir.resolve("measurements.csv");
        Files.writeString(log, Files.readString(log).replace(today, "2000-01-01"));
        HdlCliTest.Run one = HdlCliTest.hdl("figures", "--only", "nrc-rs-packet", "--out", dir.toString());
        assertThat(one.exit()).as(one.err()).isZero();
        assertThat(one.outLines()).hasSize(3);
        String readme = Files.readString(dir.resolve("README.md"));
        assertThat(readme).contains("| 40 | 40 | cycles | 0.0 | ±10 % | pass | " + today + " | `./hdl figures --only nrc-rs-packet` |")
                .contains("| 3112.86 | 3000 | us/address | +3.8 | - | calibrated | 2000-01-01" + BY);
        assertThat(readme.split(today, -1)).hasSize(2);
    }

    @Test
    void helpListsEveryNameOnlyAccepts() {
        HdlCliTest.Run r = HdlCliTest.hdl("figures", "--help");
        assertThat(r.exit()).isZero();
        String text = r.out().replaceAll("\\s+", " ");
        FigureRegistry registry = Catalog.standard().figureRegistry();
        List<String> names = new ArrayList<>(registry.sources().stream().map(FigureSource::name).toList());
        registry.figures().forEach(f -> names.add(f.id()));
        assertThat(names).hasSize(9 + registry.figures().size()).contains("nrc", "chpp-xbar", "mnc", "fabric-traffic", "nrc-reg-read", "chpp-bw-mtu");
        assertThat(text).contains("The sources, then the figures: " + String.join(", ", names) + ".");
        for (String n : names) {
            assertThat(registry.select(n)).as(n + " is accepted by --only").isNotEmpty();
        }
    }

    @Test
    void anUnknownNameIsBadUsage() {
        HdlCliTest.Run r = HdlCliTest.hdl("figures", "--only", "nrc-nothing");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("hdl: no figure source or figure named 'nrc-nothing'; sources: nrc, nrc-switch, nic, fabric, fabric-traffic, xud, chpp-xbar, chpp, mnc; figures: nrc-rs-packet, ");
        assertThat(HdlCliTest.hdl("figures", "--jobs", "0").exit()).isEqualTo(2);
    }
}
