package org.flitkit.formats.chpp;

/**
 * A cHPP format refused: the {@link Rule} broken and the detail; the message is {@code "rule-id: detail"}
 * (docs/chpp-formats.md, "Validation rules").
 */
public final class ChppFormatException extends IllegalArgumentException {
    private final Rule rule;

    public ChppFormatException(Rule rule, String detail) {
        super(rule.id() + ": " + detail);
        this.rule = rule;
    }

    public Rule rule() {
        return rule;
    }

    static void require(boolean ok, Rule rule, String detail) {
        if (!ok) {
            throw new ChppFormatException(rule, detail);
        }
    }
}
