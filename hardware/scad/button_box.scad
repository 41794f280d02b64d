// A seat's button box: minus, plus and ok (12 mm panel-mount push buttons, as
// hardware/bom.md lists them), in a tray with a cable notch and strain relief, under a
// lid with the holes and embossed symbols: minus, plus, a tick for ok, and an arrow
// turning back from minus to plus for the undo (minus and plus pressed together,
// docs/controller.md). `part` chooses the tray ("box") or the lid ("lid"); both print
// without supports: the tray on its floor, the lid on its underside.
include <common.scad>

part = "box";
size = [100, 46];
height = 30;             // a 12 mm button's body and solder lugs reach about 22 mm below the panel
button_hole = 12.2;      // a printed hole comes out a little small: a 12 mm button goes through
button_spacing = 28;
buttons_y = 19;          // the holes' centre line, from the box's front edge
symbol_y = 36;
emboss = 0.8;
cable_notch = 6;         // a 4-core cable of 4-5 mm
strain_post = 5;

function button_x(i) = size[0] / 2 + (i - 1) * button_spacing;

module box() {
    difference() {
        tray(size, height);
        // The cable leaves at the back, in the middle of the wall, down from the rim.
        rim_notch(size, height, "y1", size[0] / 2, cable_notch, 10);
    }
    // Strain relief: the cable goes round these two posts in an S before the solder
    // joints, so a pull on the cable pulls on the posts.
    for (dx = [-7, 7]) translate([size[0] / 2 + dx, size[1] - wall - 9 + (dx > 0 ? 5 : 0), 0])
        cylinder(d = strain_post, h = height - 12);
}

module minus_symbol() { square([9, 2.4], center = true); }
module plus_symbol() { square([9, 2.4], center = true); square([2.4, 9], center = true); }
module tick_symbol() { polygon([[-4.5, 0.5], [-2.8, 2.2], [-1, 0.4], [3.6, 5], [5.3, 3.3], [-1, -3]]); }
// Undo: an arc from over the plus back to over the minus, with its arrow head at the minus.
module undo_symbol() {
    half = button_spacing / 2;
    intersection() {
        difference() { circle(r = half + 1.2, $fn = 96); circle(r = half - 1.2, $fn = 96); }
        translate([-half - 3, 2]) square([2 * half + 6, half + 3]);
    }
    translate([-half, 2]) polygon([[-3.5, 0], [3.5, 0], [0, -4]]);
}

module lid() {
    difference() {
        lid_plate(size);
        for (i = [0 : 2]) translate([button_x(i), buttons_y, -1]) cylinder(d = button_hole, h = lid_thickness + 2);
    }
    translate([0, 0, lid_thickness]) linear_extrude(emboss) {
        translate([button_x(0), symbol_y]) minus_symbol();
        translate([button_x(1), symbol_y]) plus_symbol();
        translate([button_x(2), symbol_y]) tick_symbol();
        translate([(button_x(0) + button_x(1)) / 2, 3]) scale([1, 0.22]) undo_symbol();
    }
}

if (part == "box") box(); else lid();
