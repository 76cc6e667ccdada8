package org.flitkit.app;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Run by {@code mvn verify} (exec:java in the testbench module, the last of the reactor): adds up the
 * Surefire reports every module wrote during this build, so the log ends with one summary for the
 * whole project, including why tests were skipped (e.g. a missing tool).
 */
public final class SurefireTotals {
    private SurefireTotals() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        long buildStart = ManagementFactory.getRuntimeMXBean().getStartTime(); // exec:java runs inside Maven
        List<Path> reports = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root, 6)) {
            s.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml") && p.getParent().endsWith("surefire-reports"))
                    .filter(p -> modified(p) >= buildStart)
                    .sorted()
                    .forEach(reports::add);
        }
        long tests = 0;
        long failures = 0;
        long errors = 0;
        long skipped = 0;
        TreeSet<String> modules = new TreeSet<>();
        List<String> skips = new ArrayList<>();
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        for (Path p : reports) {
            Element suite = f.newDocumentBuilder().parse(p.toFile()).getDocumentElement();
            tests += num(suite, "tests");
            failures += num(suite, "failures");
            errors += num(suite, "errors");
            skipped += num(suite, "skipped");
            modules.add(root.relativize(p.getParent().getParent().getParent()).toString());
            NodeList cases = suite.getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element c = (Element) cases.item(i);
                NodeList sk = c.getElementsByTagName("skipped");
                if (sk.getLength() > 0) {
                    String cls = c.getAttribute("classname");
                    String why = ((Element) sk.item(0)).getAttribute("message");
                    skips.add(cls.substring(cls.lastIndexOf('.') + 1) + "." + c.getAttribute("name") + ": "
                            + (why.isBlank() ? "(no reason given)" : why));
                }
            }
        }
        System.out.println();
        System.out.println("Results (all " + modules.size() + " modules with tests: " + String.join(", ", modules) + "):");
        System.out.println();
        for (String s : skips) {
            System.out.println("  skipped " + s);
        }
        System.out.printf("Tests run: %d, Failures: %d, Errors: %d, Skipped: %d%n", tests, failures, errors, skipped);
        System.out.println();
    }

    private static long num(Element e, String attr) {
        String v = e.getAttribute(attr);
        return v.isEmpty() ? 0 : Long.parseLong(v);
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }
}
