package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BenchArgsTest {
    private static final String USAGE = String.join(
            "\n",
            "  --runs N        runs",
            "  --workers LIST  worker counts",
            "  --quick         a flag",
            "  --setting K=V   repeatable");

    private static BenchArgs parse(String... args) {
        return BenchArgs.parse(args, USAGE, Set.of("--quick"), Set.of("--setting"));
    }

    @Test
    void valuesFlagsAndSettingsAreReadWithTheirDefaults() {
        BenchArgs args = parse("--runs", "5", "--quick", "--setting", "a=1", "--setting", "b=x=y");

        assertEquals(5, args.positive("--runs", 3));
        assertTrue(args.flag("--quick"));
        assertEquals(Map.of("a", "1", "b", "x=y"), args.settings("--setting"));
        assertEquals(List.of(1, 2, 4, 8), args.positives("--workers", "1,2,4,8"));

        BenchArgs defaults = parse();
        assertEquals(3, defaults.positive("--runs", 3));
        assertFalse(defaults.flag("--quick"));
        assertEquals(Map.of(), defaults.settings("--setting"));
    }

    @Test
    void aListMayBeEmpty() {
        assertEquals(List.of(), parse("--workers", "").positives("--workers", "1,2"));
        assertEquals(List.of(2, 8), parse("--workers", " 2, 8 ").positives("--workers", "1"));
    }

    @Test
    void aWrongWordIsAnErrorThatShowsTheUsage() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> parse("--run", "5"));
        assertTrue(
                unknown.getMessage().contains("--run") && unknown.getMessage().contains(USAGE));
        assertThrows(IllegalArgumentException.class, () -> parse("--runs"));
        assertThrows(IllegalArgumentException.class, () -> parse("--setting", "novalue"));
        assertThrows(IllegalArgumentException.class, () -> parse("--runs", "0").positive("--runs", 3));
        assertThrows(
                IllegalArgumentException.class, () -> parse("--workers", "1,x").positives("--workers", ""));
    }
}
