package org.flitkit.app.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code hdl --version}: the FlitKit version from the jar manifest, and the Java running it. */
final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {"FlitKit " + (v != null ? v : "(development build)"),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
    }
}
