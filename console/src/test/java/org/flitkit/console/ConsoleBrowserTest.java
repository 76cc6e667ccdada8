package org.flitkit.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser (Debian's chromium and chromium-driver, headless) on a frame: every view opens,
 * discovery runs from the page, a register read on the page equals the model's value, a bad request shows its
 * message, AlltoAll shows in the traffic plot, a cable cut from the page fills the fault view and turns red in the
 * drawing. Each view's screenshot goes to target/console-screenshots (and to -Dflitkit.screenshots=DIR, e.g.
 * docs/console). In CI the browser must be there; elsewhere the test skips with a message when it is not.
 */
class ConsoleBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    static ConsoleFixture fx;
    static WebDriver browser;

    @BeforeAll
    static void start() {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
        if (System.getenv("CI") == null) {
            Assumptions.assumeTrue(present, "chromium and chromium-driver are not installed (apt-get install chromium chromium-driver): browser test skipped");
        }
        fx = new ConsoleFixture();
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1000");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).build();
        browser = new ChromeDriver(service, o);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (fx != null) {
            fx.close();
        }
    }

    static WebElement el(String id) {
        return browser.findElement(By.id(id));
    }

    static void waitFor(String what, java.util.function.BooleanSupplier done) {
        new WebDriverWait(browser, Duration.ofSeconds(120)).withMessage(what).until(d -> done.getAsBoolean());
    }

    static void screenshot(String name) throws IOException {
        Path shot = ((org.openqa.selenium.TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Path dir = Path.of("target/console-screenshots");
        Files.createDirectories(dir);
        Files.copy(shot, dir.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        String extra = System.getProperty("flitkit.screenshots");
        if (extra != null) {
            Files.createDirectories(Path.of(extra));
            Files.copy(shot, Path.of(extra).resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static void fill(String id, String text) {
        WebElement e = el(id);
        e.clear();
        e.sendKeys(text);
    }

    @Test
    void everyViewFromDiscoveryToAFaultInABrowser() throws Exception {
        browser.get(fx.base + "/?token=" + fx.console.token);
        // topology: the cabinets drawing from Graphviz
        new WebDriverWait(browser, Duration.ofSeconds(60)).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#topology-svg svg")));
        assertThat(el("token-state").getText()).isEqualTo("token set: actions enabled");
        assertThat(el("machine-line").getText()).startsWith("frame: 6 NRCs, 32 NICs, 28 cables").contains("not discovered yet");

        // discovery from the page
        el("discover-btn").click();
        // the job's end and the machine line arrive by separate requests: wait for both
        waitFor("discovery job done", () -> el("job-status").getText().contains("discovery: done"));
        assertThat(el("job-status").getText()).startsWith("job ");
        waitFor("discovery shown", () -> el("machine-line").getText().contains("discovered 6 NRCs, 32 NICs"));

        // the topology view, a bottom switch
        new org.openqa.selenium.support.ui.Select(el("level")).selectByValue("bottom-switch");
        el("show-level").click();
        waitFor("bottom switch drawn", () -> el("topology-svg").getText().contains("bottom switch 0: 6 NRCs"));
        screenshot("topology");

        // the device view: registers read in band, compared with the model
        el("tab-devices").click();
        fill("device-chip", "0x8004");
        el("device-read").click();
        waitFor("registers read", () -> !browser.findElements(By.id("reg-NRC_TEMPERATURE")).isEmpty());
        long temperature = fx.session.onMachine("the model's value (test)", j -> fx.session.ms.machine.fabric.peek(fx.session.ms.machine.nrcs[4],
                fx.session.ms.machine.nrc(4).temperature));
        assertThat(el("reg-NRC_TEMPERATURE").getText()).isEqualTo(Long.toString(temperature)).isEqualTo("45");
        assertThat(el("reg-CHIP_ID").getText()).isEqualTo(Integer.toString(0x8004));
        assertThat(browser.findElements(By.cssSelector("#device-ports tbody tr"))).hasSize(24);
        screenshot("device");

        // a bad request: its message, and nothing else happens
        fill("device-chip", "0x9999");
        el("device-read").click();
        waitFor("the error shown", () -> el("error").isDisplayed());
        assertThat(el("error").getText()).isEqualTo("no NRC 0x9999 in this frame: NRCs are 0x8000..0x8005");

        // traffic: AlltoAll between the nodes, the watched NRC's ports in the plot
        el("tab-traffic").click();
        fill("watch-chip", "0x8004");
        el("watch-btn").click();
        fill("alltoall-interval", "16");
        el("alltoall-start").click();
        waitFor("traffic plotted", () -> browser.findElements(By.cssSelector("#traffic-plot polyline")).size() >= 4
                && el("traffic-info").getText().matches("([6-9]|\\d\\d+) samples.*"));
        assertThat(el("machine-line").getText()).contains("AlltoAll every 16 cycles");
        screenshot("traffic");
        el("alltoall-stop").click();
        waitFor("AlltoAll stopped", () -> el("machine-line").getText().contains("AlltoAll off"));

        // a cable cut from the page: the fault view fills, the drawing shows the cable down
        el("tab-devices").click();
        fill("device-chip", "0x8000");
        fill("action-port", "8");
        el("cut-btn").click();
        el("tab-faults").click();
        // both ends of the cable report; wait for this end's report, not the first one shown
        waitFor("the fault report of NRC 0x8000 port 8", () -> el("faults-table").getText().contains("0x8000 fault=link-down 8"));
        screenshot("faults");
        el("tab-topology").click();
        el("show-level").click();
        waitFor("the cut drawn", () -> el("topology-svg").getText().contains("(1 down)"));

        // the log view: jobs and lines
        el("tab-log").click();
        waitFor("the log", () -> el("log-lines").getText().contains("cable cut: NRC 0x8000 port 8"));
        assertThat(el("jobs-table").getText()).contains("discovery", "AlltoAll every 16 cycles", "cut 0x8000:8");
        screenshot("log");
    }
}
