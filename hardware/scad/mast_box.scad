// The mast box: the Raspberry Pi on standoffs, the camera cable's way in, the button
// cables' way out, a 1/4-inch tripod mount in its floor, and a lid with the OLED's window.
// `pi` chooses the board ("pi4-pi5": the Pi 4 and the Pi 5 share their outline and holes;
// "zero2w"), `part` the tray ("box") or the lid ("lid"). Both print without supports: the
// tray on its floor, the lid on its outer face (the window and the OLED's posts upwards).
include <common.scad>

pi = "pi4-pi5";
part = "box";

// From the Raspberry Pi mechanical drawings: the board's outline, its M2.5 mounting holes
// from the board's corner (x along the long edge, y across, the camera/HDMI edge at y = 0),
// the height it needs above its standoffs (a GPIO screw-terminal board of about 20 mm,
// under the OLED module's 12 mm below the lid), and where along the camera edge the
// camera cable comes up beside the board (near the camera connector: the Pi 4's between
// its HDMI and audio sockets, the Zero's at its far end).
boards = [
    ["pi4-pi5", [85, 56], [[3.5, 3.5], [61.5, 3.5], [3.5, 52.5], [61.5, 52.5]], 34, 45],
    ["zero2w", [65, 30], [[3.5, 3.5], [61.5, 3.5], [3.5, 26.5], [61.5, 26.5]], 30, 46],
];
board = boards[search([pi], boards)[0]];
board_size = board[1];
holes = board[2];
headroom = board[3];
camera_x = board[4];

// The 2.42-inch SSD1309 module of hardware/bom.md: its board, its M2.5 holes' spacing, the
// visible area the window shows, and the glass's thickness (the posts' height, so the glass
// lies against the lid). Other modules: change these four lines to your module's numbers.
oled_board = [61.5, 39.5];
oled_holes = [56, 34];
oled_view = [57, 29];
oled_glass = 2;

standoff = 5;
standoff_diameter = 6;
standoff_pilot = 2.2;   // an M2.5 screw cuts its thread
gap = 4;                // between the board and the walls: room for the camera cable
mount_room = 22;        // the floor before the board's end, for the 1/4-inch mount
nut_across_flats = 11.45; // a 1/4"-20 hex nut (7/16 inch = 11.1 mm) drops in
nut_height = 5.8;
screw_hole = 6.8;       // the mast's 1/4-inch screw
camera_slot = [24, 3];  // the camera ribbon (16 mm for 15-pin, 11.5 mm for 22-pin) comes up through the floor

inner = [max(board_size[0], oled_board[0]) + 2 * gap + mount_room, max(board_size[1], oled_board[1]) + 2 * gap];
size = [inner[0] + 2 * wall, inner[1] + 2 * wall];
height = floor_thickness + standoff + headroom;
// The mount at the x0 end, the board's corner after it, beside the camera edge's gap; its
// USB and Ethernet end (Pi 4/5) at the x1 wall.
mount_centre = [wall + mount_room / 2, size[1] / 2];
board_origin = [wall + mount_room + gap, wall + gap];

module box() {
    difference() {
        union() {
            tray(size, height);
            for (h = holes) translate([board_origin[0] + h[0], board_origin[1] + h[1], 0])
                cylinder(d = standoff_diameter, h = floor_thickness + standoff);
            translate([mount_centre[0], mount_centre[1], 0]) cylinder(d = nut_across_flats + 6, h = floor_thickness + nut_height + 1.5);
        }
        for (h = holes) translate([board_origin[0] + h[0], board_origin[1] + h[1], floor_thickness])
            cylinder(d = standoff_pilot, h = standoff + 1);
        // 1/4-inch mount: the screw comes up through the floor into a nut held in the boss.
        translate([mount_centre[0], mount_centre[1], -1]) cylinder(d = screw_hole, h = 20);
        translate([mount_centre[0], mount_centre[1], floor_thickness + 1.5])
            cylinder(d = nut_across_flats / cos(30), h = 20, $fn = 6);
        // The camera cable: up through the floor beside the board's camera edge.
        translate([board_origin[0] + camera_x - camera_slot[0] / 2, wall + 0.5, -1]) cube([camera_slot[0], camera_slot[1], floor_thickness + 2]);
        // The ports: power and displays along the y = 0 edge, USB and Ethernet (Pi 4/5) at
        // the x1 end, down to the board's top.
        rim_notch(size, height, "y0", board_origin[0] + 30, 56, headroom);
        if (pi == "pi4-pi5") rim_notch(size, height, "x1", board_origin[1] + board_size[1] / 2, board_size[1] - 4, headroom);
        // The OLED's jumper wires stay inside; the seats' button cables leave over the GPIO header.
        rim_notch(size, height, "y1", board_origin[0] + 32, 44, 10);
    }
}

module lid() {
    // Over the board's x0 half, away from the Pi 4/5's tall USB and Ethernet sockets.
    view_centre = [wall + mount_room + gap + oled_board[0] / 2, size[1] / 2];
    difference() {
        lid_plate(size);
        translate([view_centre[0] - oled_view[0] / 2, view_centre[1] - oled_view[1] / 2, -1])
            cube([oled_view[0], oled_view[1], lid_thickness + 2]);
    }
    for (sx = [-1, 1], sy = [-1, 1])
        translate([view_centre[0] + sx * oled_holes[0] / 2, view_centre[1] + sy * oled_holes[1] / 2, lid_thickness])
            difference() { cylinder(d = 5, h = oled_glass); cylinder(d = standoff_pilot, h = oled_glass + 1); }
}

if (part == "box") box(); else lid();
