package dev.pglane.it;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;

/**
 * A browser's screenshot of a page of charts, read for the ITs: the charts are the white areas (the page around them
 * is grey, and anti-aliased text on grey never turns pure white), and within a chart, where a colour shows.
 */
final class Screenshot {
    private static final int WHITE = 0xFFFFFF;
    /** Shorter white runs are not a chart. */
    private static final int MIN_CHART_HEIGHT = 40;
    /** How far a drawn pixel's channels may stray from the colour asked for (rounding, colour management). */
    private static final int TOLERANCE = 10;

    private final int width;
    private final int height;
    /** Every pixel's RGB, row by row: read once, since asking the image pixel by pixel is slow. */
    private final int[] pixels;

    Screenshot(BufferedImage image) {
        this.width = image.getWidth();
        this.height = image.getHeight();
        this.pixels = image.getRGB(0, 0, width, height, null, 0, width);
    }

    private int rgb(int x, int y) {
        return pixels[y * width + x] & 0xFFFFFF;
    }

    /** One chart's area of the screenshot. */
    final class Region {
        private final int left;
        private final int top;
        private final int right;
        private final int bottom;

        private Region(int left, int top, int right, int bottom) {
            this.left = left;
            this.top = top;
            this.right = right;
            this.bottom = bottom;
        }

        int width() {
            return right - left;
        }

        /** Runs of rows in which {@code colour} shows: one per bar of that colour (bars have gaps between them). */
        int bands(int colour) {
            int bands = 0;
            boolean inBand = false;
            for (int y = top; y < bottom; y++) {
                boolean shows = rowShows(y, colour);
                if (shows && !inBand) {
                    bands++;
                }
                inBand = shows;
            }
            return bands;
        }

        /** From the leftmost to the rightmost pixel of {@code colour}: how far across a line runs. */
        int span(int colour) {
            int first = -1;
            int last = -1;
            for (int x = left; x < right; x++) {
                for (int y = top; y < bottom; y++) {
                    if (near(rgb(x, y), colour)) {
                        first = first < 0 ? x : first;
                        last = x;
                        break;
                    }
                }
            }
            return first < 0 ? 0 : last - first;
        }

        private boolean rowShows(int y, int colour) {
            for (int x = left; x < right; x++) {
                if (near(rgb(x, y), colour)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The charts from top to bottom. */
    List<Region> charts() {
        int left = leftmostWhite();
        List<Region> regions = new ArrayList<>();
        if (left < 0) {
            return regions;
        }
        // a few pixels inside the charts' left edge nothing is drawn: their padding
        int column = left + 4;
        int y = 0;
        while (y < height) {
            if (!isWhite(column, y)) {
                y++;
                continue;
            }
            int top = y;
            while (y < height && isWhite(column, y)) {
                y++;
            }
            if (y - top >= MIN_CHART_HEIGHT) {
                int right = column;
                while (right + 1 < width && isWhite(right + 1, top + 2)) {
                    right++;
                }
                regions.add(new Region(left, top, right, y));
            }
        }
        return regions;
    }

    private int leftmostWhite() {
        for (int x = 0; x < width; x++) {
            for (int y = 0; y < height; y++) {
                if (isWhite(x, y)) {
                    return x;
                }
            }
        }
        return -1;
    }

    private boolean isWhite(int x, int y) {
        return rgb(x, y) == WHITE;
    }

    private static boolean near(int rgb, int colour) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs(((rgb >> shift) & 0xFF) - ((colour >> shift) & 0xFF)) > TOLERANCE) {
                return false;
            }
        }
        return true;
    }
}
