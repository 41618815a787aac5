// SPDX-License-Identifier: GPL-2.0
// The main() of the layers' link checks (layers.cmake): never run; the
// check is that the link succeeds.
int main()
{
	return 0;
}
