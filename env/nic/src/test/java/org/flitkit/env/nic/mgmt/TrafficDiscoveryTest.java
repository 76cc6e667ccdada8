package org.flitkit.env.nic.mgmt;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.env.nrc.system.Th2FatTree;
import org.junit.jupiter.api.Test;

/**
 * Discovery while every node sends AlltoAll data through the switches' tables (docs/th2-management.md, "Discovery
 * under AlltoAll traffic"): on a frame, the loaded discovery finds the same chips, takes longer by the management
 * packets' waits behind data packets, and no data packet is lost.
 */
class TrafficDiscoveryTest {
    @Test
    void aFrameUnderAlltoAllIsDiscoveredTheSameAndSlowerAndDeliversEveryDataPacket() {
        Th2FatTree tree = Th2FatTree.frame();
        try (ManagementServer m = new ManagementServer(tree, DiscoveryTest.PROTOS, 1, 0, 1, ManagementServer.TIMEOUT)) {
            m.powerUp(5_000);
            // one request at a time, as the figure; every node but the server's an 8-flit packet every 8 cycles
            TrafficDiscovery.Result r = TrafficDiscovery.run(m, TrafficFigures.INTERVAL, TrafficFigures.WARMUP, 50_000, (f, d) -> { });
            assertThat(r.idle().nrcs()).hasSize(6);
            assertThat(r.loaded().nrcs()).hasSize(6);
            assertThat(r.loaded().nics()).hasSize(32);
            assertThat(r.loaded().failures()).isZero();
            assertThat(r.loaded().requests()).isEqualTo(r.idle().requests()).isEqualTo(103);
            // each request waits behind the data packets on its links: 922 cycles more over 103 requests, +1.32 %
            assertThat(r.idle().cycles()).isEqualTo(70_001);
            assertThat(r.loaded().cycles()).isEqualTo(70_923);
            // 178,870 packets sent while it ran (31 nodes, one every 12.3 cycles each: 65 % of the links' rate), all delivered
            assertThat(r.sentDuring()).isEqualTo(178_870);
            assertThat(r.sent()).isEqualTo(184_223);
            assertThat(r.received()).isEqualTo(r.sent());
        }
    }
}
