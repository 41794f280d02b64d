// Pieces the button box and the mast box share: an open tray with screw posts, its lid,
// and notches cut down from a wall's rim (the lid closes them from above, so no opening
// needs a bridge and neither part needs supports).
$fn = 48;
wall = 2.4;
floor_thickness = 2.4;
lid_thickness = 3;
post_diameter = 7;
screw_pilot = 2.6;      // M3 self-tapping screw into a post
screw_clearance = 3.4;  // through the lid

// Centres of the four corner posts of a tray with outer size `size` (x, y).
function post_centres(size) = [for (x = [wall + post_diameter / 2 - 0.5, size[0] - wall - post_diameter / 2 + 0.5])
                               for (y = [wall + post_diameter / 2 - 0.5, size[1] - wall - post_diameter / 2 + 0.5]) [x, y]];

module tray(size, height) {
    difference() {
        union() {
            difference() {
                cube([size[0], size[1], height]);
                translate([wall, wall, floor_thickness]) cube([size[0] - 2 * wall, size[1] - 2 * wall, height]);
            }
            for (p = post_centres(size)) translate([p[0], p[1], 0]) cylinder(d = post_diameter, h = height);
        }
        for (p = post_centres(size)) translate([p[0], p[1], floor_thickness]) cylinder(d = screw_pilot, h = height);
    }
}

// A notch `width` wide and `depth` deep down from the rim of a tray `height` tall, centred
// at `at` along the wall; wall "x0"/"x1" at x = 0 / x = size[0], "y0"/"y1" likewise.
module rim_notch(size, height, side, at, width, depth) {
    if (side == "y0") translate([at - width / 2, -1, height - depth]) cube([width, wall + 2, depth + 1]);
    if (side == "y1") translate([at - width / 2, size[1] - wall - 1, height - depth]) cube([width, wall + 2, depth + 1]);
    if (side == "x0") translate([-1, at - width / 2, height - depth]) cube([wall + 2, width, depth + 1]);
    if (side == "x1") translate([size[0] - wall - 1, at - width / 2, height - depth]) cube([wall + 2, width, depth + 1]);
}

module lid_plate(size) {
    difference() {
        cube([size[0], size[1], lid_thickness]);
        for (p = post_centres(size)) translate([p[0], p[1], -1]) cylinder(d = screw_clearance, h = lid_thickness + 2);
    }
}
