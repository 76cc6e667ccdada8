package org.flitkit.env.ring.topo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Block designs, projective planes from difference sets and the quasi-complete digraph (docs/multiring.md, "Distributed full switch"). */
class DesignsTest {
    @Test
    void theFanoPlaneIsConstructedAndEveryTwoSubscribersShareOneSwitch() {
        DesignExistence.Verdict v = DesignExistence.of(3, 1);
        assertThat(v.status()).isEqualTo(DesignExistence.Answer.CONSTRUCTED);
        BlockDesign fano = v.design();
        assertThat(fano.points()).isEqualTo(7);
        for (int x = 0; x < 7; x++) {
            for (int y = x + 1; y < 7; y++) {
                assertThat(fano.sharedBlocks(x, y)).hasSize(1);
            }
        }
    }

    @Test
    void pg23AndPg211AreConstructed() {
        assertThat(DesignExistence.of(4, 1).design().toString()).isEqualTo("B(13,4,1)");
        DesignExistence.Verdict v = DesignExistence.of(12, 1);
        assertThat(v.status()).isEqualTo(DesignExistence.Answer.CONSTRUCTED);
        assertThat(v.design().sharedBlocks(5, 100)).hasSize(1);
    }

    @Test
    void b4371DoesNotExistByBruckRyserChowla() {
        DesignExistence.Verdict v = DesignExistence.of(7, 1);
        assertThat(v.points()).isEqualTo(43);
        assertThat(v.status()).isEqualTo(DesignExistence.Answer.DOES_NOT_EXIST);
        assertThat(v.reason()).isEqualTo("x^2 = 6 y^2 - 1 z^2 has no nonzero integer solution (Hilbert symbol at 2 is -1; Bruck-Ryser-Chowla)");
        assertThat(DesignExistence.of(7, 2).reason()).isEqualTo("N=22 is even and m-a=5 is not a square (Bruck-Ryser-Chowla)");
    }

    @Test
    void theSpecsB742ValidatesAndABrokenOneNamesThePair() {
        int[][] blocks = {{1, 2, 3, 4}, {1, 2, 5, 7}, {1, 3, 5, 6}, {1, 4, 6, 7}, {2, 3, 6, 7}, {2, 4, 5, 6}, {3, 4, 5, 7}};
        int[][] zero = new int[7][];
        for (int i = 0; i < 7; i++) {
            zero[i] = java.util.Arrays.stream(blocks[i]).map(p -> p - 1).toArray();
        }
        assertThat(new BlockDesign(7, 4, 2, zero).sharedBlocks(0, 6)).containsExactly(1, 3);
        zero[6] = new int[] {2, 3, 4, 5};
        assertThatThrownBy(() -> new BlockDesign(7, 4, 2, zero)).hasMessage("points 2 and 5 share 3 blocks, not 2");
    }

    @Test
    void theQuasiCompleteDigraphJoinsEveryPairByOnePathOfLengthTwo() {
        QuasiCompleteDigraph g = new QuasiCompleteDigraph(4);
        assertThat(g.nodes()).isEqualTo(16);
        // switch 1 (spec row i=2): from subscribers (2-j) mod 16 + 1 = 2,1,16,15 -> 1,0,15,14; to (2+(j-1)4) mod 16 + 1 -> 2,6,10,14
        assertThat(new int[] {g.from(1, 0), g.from(1, 1), g.from(1, 2), g.from(1, 3)}).containsExactly(1, 0, 15, 14);
        assertThat(new int[] {g.to(1, 0), g.to(1, 1), g.to(1, 2), g.to(1, 3)}).containsExactly(2, 6, 10, 14);
        assertThat(g.via(0, 6)).isEqualTo(1);
    }
}
