package org.flitkit.console;

import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.env.nic.mgmt.ManagementServer;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.rtl.nma.EepParams;

/** A frame of whole chips, its management server and the console on a free port of localhost. */
final class ConsoleFixture implements AutoCloseable {
    static final Th2Machine.Protos PROTOS = new Th2Machine.Protos(EepParams.FAST);

    final MachineSession session;
    final Console console;
    final String base;

    ConsoleFixture() {
        ManagementServer ms = new ManagementServer(Th2FatTree.frame(), PROTOS, 1, 0, ManagementServer.WINDOW, ManagementServer.TIMEOUT);
        session = new MachineSession("frame", ms);
        session.start();
        console = new Console(session);
        base = "http://127.0.0.1:" + console.start("127.0.0.1", 0);
    }

    @Override
    public void close() {
        console.close();
        session.close();
    }
}
