package org.flitkit.formats.core;

/**
 * The Markdown of a layout as the format documents print it (docs/th2-formats.md, docs/chpp-formats.md,
 * docs/xud-formats.md): a title, the layout's name and width, then one row per field or reserved gap, top bit first.
 */
public final class LayoutDoc {
    private LayoutDoc() {
    }

    /** Appends the table of {@code layout} under the heading {@code title}. */
    public static void table(StringBuilder md, Layout layout, String title) {
        md.append("### ").append(title).append("\n\n`").append(layout.name()).append("`, ")
                .append(layout.width()).append(" bits.\n\n| field | bits | width | meaning |\n|---|---|---|---|\n");
        for (Field f : layout.rows()) {
            boolean gap = f.name().equals(Layout.RESERVED);
            md.append("| ").append(gap ? "*reserved*" : f.name()).append(" | ").append(f.bits()).append(" | ")
                    .append(f.width()).append(" | ").append(gap ? "must be 0" : layout.meaning(f.name())).append(" |\n");
        }
        md.append('\n');
    }
}
