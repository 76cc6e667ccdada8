package org.flitkit.app.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The clone of FlitKit that {@code ./hdl} runs from, and the Maven coordinates its poms give: the parent's
 * groupId, artifactId and version (from the root pom.xml) and the testbench module's artifactId, which a
 * project of one's own depends on.
 */
record FlitKitClone(Path root, String groupId, String artifactId, String version, String testbenchArtifactId) {
    /** The module a project of one's own depends on: the framework, with the language and the waves below it. */
    static final String TESTBENCH_MODULE = "testbench";

    /** The clone holding this application's classes or jar: the nearest folder above them whose pom.xml lists modules. */
    static FlitKitClone ofThisApplication() {
        Path here;
        try {
            here = Path.of(FlitKitClone.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException | SecurityException e) {
            throw CliError.failure("cannot tell where FlitKit runs from: " + e.getMessage());
        }
        for (Path dir = here.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom) && readString(pom).contains("<modules>")) {
                return of(dir);
            }
        }
        throw CliError.failure("FlitKit's sources are not around " + here + " (no pom.xml with <modules> above it); "
                + "run ./hdl from a clone of FlitKit");
    }

    /** The clone at {@code root}, its coordinates read from its poms. */
    static FlitKitClone of(Path root) {
        Element parent = project(root.resolve("pom.xml"));
        Element testbench = project(root.resolve(TESTBENCH_MODULE).resolve("pom.xml"));
        return new FlitKitClone(root, child(parent, "groupId", root), child(parent, "artifactId", root), child(parent, "version", root),
                child(testbench, "artifactId", root.resolve(TESTBENCH_MODULE)));
    }

    private static Element project(Path pom) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return f.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
        } catch (IOException e) {
            throw CliError.failure("cannot read " + pom + ": " + IoErrors.reason(e));
        } catch (SAXException | ParserConfigurationException e) {
            throw CliError.failure(pom + " is not a readable pom: " + e.getMessage());
        }
    }

    /** The text of {@code project}'s own child {@code name} (not a parent's or a dependency's). */
    private static String child(Element project, String name, Path dir) {
        for (Node n = project.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && name.equals(e.getLocalName() != null ? e.getLocalName() : e.getTagName())) {
                return e.getTextContent().strip();
            }
        }
        throw CliError.failure(dir.resolve("pom.xml") + " has no <" + name + "> of its own");
    }

    private static String readString(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return "";
        }
    }
}
